package redact

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
)

// Fake credentials in the right formats, assembled at run time so that this
// file does not itself look like it leaks secrets to a scanner.
var (
	rep          = strings.Repeat
	awsKey       = "AKIA" + "IOSFODNN7" + "EXAMPLE"
	awsSecret    = fake(1, 40, alnum+"+/")
	gcpKey       = "AIza" + "SyA" + rep("x1Y2", 8)
	saKeyID      = rep("0a1b2c3d4e", 4)
	azureKey     = rep("Ab3+", 21) + "Cd" + "=="
	azureSecret  = fake(2, 3, alnum) + "8Q~" + fake(3, 34, alnum+"~._-")
	ghToken      = "ghp_" + rep("a1B2", 9)
	ghPAT        = "github_pat_" + rep("A1b2", 5) + "C3" + "_" + rep("d4E5f", 11) + "G6h7"
	glToken      = "glpat-" + rep("x9Y8", 5)
	slackToken   = "xoxb-" + "123456789012-1234567890123-" + rep("Ab3d", 6)
	slackHook    = "https://hooks.slack.com/services/" + "T0123ABCD/B0123ABCD/" + rep("Xy9z", 6)
	stripeKey    = "sk_live_" + rep("4eC39HqL", 3)
	openaiKey    = "sk-proj-" + rep("Ab3D_x9", 10)
	openaiOld    = "sk-" + rep("aB3d", 12)
	openaiSvc    = "sk-svcacct-" + rep("Qw7-", 12)
	openaiMarked = "sk-" + rep("a1", 10) + "T3Blbk" + "FJ" + rep("b2", 10)
	anthKey      = "sk-ant-api03-" + rep("Zx9_", 23) + "AA"
	anthAdmin    = "sk-ant-admin01-" + rep("Pq4-", 20)
	jwt          = "eyJhbGciOiJIUzI1NiJ9" + ".eyJzdWIiOiIxMjM0NTY3ODkwIn0" + ".dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U"
	keyBody      = "MIIEowIBAAKCAQEA7" + rep("q8Z+", 10)
	rsaKey       = "-----BEGIN RSA " + "PRIVATE KEY-----\n" + keyBody + "\n" + rep("zW9/", 16) + "\n-----END RSA PRIVATE KEY-----"
	random20     = fake(4, 20, alnum)
)

const alnum = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"

// fake returns n pseudo-random bytes of alphabet, the same on every run.
func fake(seed uint64, n int, alphabet string) string {
	b := make([]byte, n)
	for i := range b {
		seed ^= seed << 13
		seed ^= seed >> 7
		seed ^= seed << 17
		b[i] = alphabet[seed%uint64(len(alphabet))]
	}
	return string(b)
}

type positive struct {
	name, in, want, kind, secret string
}

// positives has one realistic case or more per kind; secret is a part of
// the input that must not survive redaction.
var positives = []positive{
	{"AWSAccessKey", "export AWS_ACCESS_KEY_ID=" + awsKey, "export AWS_ACCESS_KEY_ID=[REDACTED:aws-access-key]", "aws-access-key", awsKey},
	{"AWSSecretKey", "aws_secret_access_key = " + awsSecret, "aws_secret_access_key = [REDACTED:aws-secret-key]", "aws-secret-key", awsSecret},
	{"AWSSecretKeyJSON", `"SecretAccessKey": "` + awsSecret + `",`, `"SecretAccessKey": "[REDACTED:aws-secret-key]",`, "aws-secret-key", awsSecret},
	{"GCPAPIKey", "maps?key=" + gcpKey + "&v=3", "maps?key=[REDACTED:gcp-api-key]&v=3", "gcp-api-key", gcpKey},
	{"GCPServiceAccount", `  "private_key_id": "` + saKeyID + `",`, `  "private_key_id": "[REDACTED:gcp-service-account]",`, "gcp-service-account", saKeyID},
	{"AzureStorageKey", "DefaultEndpointsProtocol=https;AccountName=acct;AccountKey=" + azureKey + ";EndpointSuffix=core.windows.net",
		"DefaultEndpointsProtocol=https;AccountName=acct;AccountKey=[REDACTED:azure-storage-key];EndpointSuffix=core.windows.net", "azure-storage-key", azureKey},
	{"AzureClientSecret", "AZURE_CLIENT_SECRET=" + azureSecret, "AZURE_CLIENT_SECRET=[REDACTED:azure-client-secret]", "azure-client-secret", azureSecret},
	{"AzureClientSecretJSON", `{"clientSecret": "` + azureSecret + `"}`, `{"clientSecret": "[REDACTED:azure-client-secret]"}`, "azure-client-secret", azureSecret},
	{"GitHubToken", "GH_TOKEN=" + ghToken + " gh pr list", "GH_TOKEN=[REDACTED:github-token] gh pr list", "github-token", ghToken},
	{"GitHubPAT", "git clone https://" + ghPAT + "@github.com/org/repo", "git clone https://[REDACTED:github-token]@github.com/org/repo", "github-token", ghPAT},
	{"GitLabToken", "PRIVATE-TOKEN: " + glToken, "PRIVATE-TOKEN: [REDACTED:gitlab-token]", "gitlab-token", glToken},
	{"SlackToken", "bot token " + slackToken + ".", "bot token [REDACTED:slack-token].", "slack-token", slackToken},
	{"SlackWebhook", "curl -X POST " + slackHook + " -d @msg.json", "curl -X POST [REDACTED:slack-webhook] -d @msg.json", "slack-webhook", slackHook},
	{"AlchemyURLKey", "fork from https://eth-mainnet.g.alchemy.com/v2/Qm7xT2pLk9RbV4nWs8YdHc5e for the tests", "fork from https://eth-mainnet.g.alchemy.com/v2/[REDACTED:rpc-url-key] for the tests", "rpc-url-key", "Qm7xT2pLk9RbV4nWs8YdHc5e"},
	{"InfuraURLKey", "RPC=https://mainnet.infura.io/v3/0f3c9e1b7a2d4c6e8f0a1b2c3d4e5f60", "RPC=https://mainnet.infura.io/v3/[REDACTED:rpc-url-key]", "rpc-url-key", "0f3c9e1b7a2d4c6e8f0a1b2c3d4e5f60"},
	{"StripeKey", "Stripe.api_key = '" + stripeKey + "'", "Stripe.api_key = '[REDACTED:stripe-key]'", "stripe-key", stripeKey},
	{"OpenAIProjectKey", "OPENAI_API_KEY=" + openaiKey, "OPENAI_API_KEY=[REDACTED:openai-key]", "openai-key", openaiKey},
	{"OpenAILegacyKey", "old key " + openaiOld + ".", "old key [REDACTED:openai-key].", "openai-key", openaiOld},
	{"OpenAIServiceAccountKey", "key: " + openaiSvc, "key: [REDACTED:openai-key]", "openai-key", openaiSvc},
	{"OpenAIMarkedKey", "(" + openaiMarked + ")", "([REDACTED:openai-key])", "openai-key", openaiMarked},
	{"AnthropicKey", "ANTHROPIC_API_KEY=" + anthKey, "ANTHROPIC_API_KEY=[REDACTED:anthropic-key]", "anthropic-key", anthKey},
	{"AnthropicAdminKey", `-H "x-api-key: ` + anthAdmin + `"`, `-H "x-api-key: [REDACTED:anthropic-key]"`, "anthropic-key", anthAdmin},
	{"JWT", "Authorization: Bearer " + jwt, "Authorization: Bearer [REDACTED:jwt]", "jwt", jwt},
	{"PrivateKeyRSA", "id_rsa:\n" + rsaKey + "\nend", "id_rsa:\n[REDACTED:private-key]\nend", "private-key", keyBody},
	{"PrivateKeyTruncated", "pasted:\n-----BEGIN OPENSSH " + "PRIVATE KEY-----\n" + keyBody + "\nAAAA", "pasted:\n[REDACTED:private-key]", "private-key", keyBody},
	{"PrivateKeyInJSON", `"private_key": "-----BEGIN ` + `PRIVATE KEY-----\n` + keyBody + `\n-----END PRIVATE KEY-----\n",`,
		`"private_key": "[REDACTED:private-key]\n",`, "private-key", keyBody},
	{"PrivateKeyPGP", "-----BEGIN PGP " + "PRIVATE KEY BLOCK-----\nVersion: GnuPG v2\n\n" + keyBody + "\n-----END PGP PRIVATE KEY BLOCK-----",
		"[REDACTED:private-key]", "private-key", keyBody},
	{"URLPassword", "DATABASE_URL=postgres://app:" + "s3cr3tPW@db.internal:5432/app", "DATABASE_URL=postgres://app:[REDACTED:url-password]@db.internal:5432/app", "url-password", "s3cr3tPW"},
	{"URLPasswordBrief", "https://bob:" + "s3cret@host/x", "https://bob:[REDACTED:url-password]@host/x", "url-password", "s3cret"},
	{"URLPasswordNoUser", "redis://:" + "hunter22@cache:6379/0", "redis://:[REDACTED:url-password]@cache:6379/0", "url-password", "hunter22"},
	{"PasswordEquals", "password=" + "hunter22", "password=[REDACTED:password]", "password", "hunter22"},
	{"PasswordEnv", "DB_PASSWORD=" + "pa55word!", "DB_PASSWORD=[REDACTED:password]", "password", "pa55word!"},
	{"PasswordEnvPlainWord", "docker run -e POSTGRES_PASSWORD=" + "postgres -p 5432:5432 postgres:16", "docker run -e POSTGRES_PASSWORD=[REDACTED:password] -p 5432:5432 postgres:16", "password", "=postgres "},
	{"PasswordYAML", "db:\n  password: " + "correct-horse9", "db:\n  password: [REDACTED:password]", "password", "correct-horse9"},
	{"PasswordYAMLComment", "password: " + "hunter # prod", "password: [REDACTED:password] # prod", "password", "hunter"},
	{"PasswordJSON", `{"user": "bob", "password": "` + "tr0ub4dor" + `"}`, `{"user": "bob", "password": "[REDACTED:password]"}`, "password", "tr0ub4dor"},
	{"PasswordEscapedJSON", `"{\"password\":\"` + "tr0ub4dor" + `\"}"`, `"{\"password\":\"[REDACTED:password]\"}"`, "password", "tr0ub4dor"},
	{"PasswordPython", `conn = connect(user="bob", password="` + `hunter2")`, `conn = connect(user="bob", password="[REDACTED:password]")`, "password", "hunter2"},
	{"PasswordTyped", `    password: str = "` + `hunter2"`, `    password: str = "[REDACTED:password]"`, "password", "hunter2"},
	{"PasswordPHP", `'password' => '` + `s3cr3t!'`, `'password' => '[REDACTED:password]'`, "password", "s3cr3t!"},
	{"PasswordPassphrase", "passphrase: 'correct horse battery staple'", "passphrase: '[REDACTED:password]'", "password", "correct horse"},
	{"PasswordPwdSegment", "export MYSQL_PWD=" + "abc12345", "export MYSQL_PWD=[REDACTED:password]", "password", "abc12345"},
	{"PasswordCamelPass", "dbPass: " + "Tr0ub4dor&3", "dbPass: [REDACTED:password]", "password", "Tr0ub4dor&3"},
	{"PasswordMarkdown", "**Password:** " + "hunter22 (staging only)", "**Password:** [REDACTED:password] (staging only)", "password", "hunter22"},
	{"PasswordProse", "The admin password: " + "Hunter2! do not share", "The admin password: [REDACTED:password] do not share", "password", "Hunter2!"},
	{"PasswordFlag", "mysql --password " + "hunter22 -u root", "mysql --password [REDACTED:password] -u root", "password", "hunter22"},
	{"PasswordFlagEquals", "psql --password=" + "hunter22", "psql --password=[REDACTED:password]", "password", "hunter22"},
	{"PasswordCurl", "curl -u bob:" + "hunter22 https://api.example.com", "curl -u bob:[REDACTED:password] https://api.example.com", "password", "hunter22"},
	{"PasswordGoLiteral", `password := "` + `hunter22"`, `password := "[REDACTED:password]"`, "password", "hunter22"},
	{"PasswordXML", "<server><password>" + "hunter22</password></server>", "<server><password>[REDACTED:password]</password></server>", "password", "hunter22"},
	{"PasswordQuery", "/login?user=bob&password=" + "hunter22&next=/home", "/login?user=bob&password=[REDACTED:password]&next=/home", "password", "hunter22"},
	{"PasswordSentence", "Log in with password=" + "hunter22.", "Log in with password=[REDACTED:password].", "password", "hunter22"},
	{"PasswordSQL", "SELECT id FROM users WHERE password = '" + "hunter22'", "SELECT id FROM users WHERE password = '[REDACTED:password]'", "password", "hunter22"},
	{"GenericSecret", "webhook_secret = " + random20, "webhook_secret = [REDACTED:generic-secret]", "generic-secret", random20},
	{"GenericEnvKeyInWords", "the staging SENDGRID_KEY is Zx8r2LmQ9vTq4nBw7YpK3sJd, use it in tests", "the staging SENDGRID_KEY is [REDACTED:generic-secret], use it in tests", "generic-secret", "Zx8r2LmQ9vTq4nBw7YpK3sJd"},
	{"GenericRoutingKey", "PAGERDUTY_ROUTING_KEY=R0ZX8r2LmQ9vTq4nBw7YpK3sJd", "PAGERDUTY_ROUTING_KEY=[REDACTED:generic-secret]", "generic-secret", "R0ZX8r2LmQ9vTq4nBw7YpK3sJd"},
	{"SendGrid", "sendgrid: 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 is what we use", "sendgrid: [REDACTED:sendgrid-key] is what we use", "sendgrid-key", "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"},
	{"GenericEnvKey", "here's the admin key: ALGOLIA_ADMIN_KEY=8c1f0e9d2b7a4f6e93d5c0b1a2e4f7d9", "here's the admin key: ALGOLIA_ADMIN_KEY=[REDACTED:generic-secret]", "generic-secret", "8c1f0e9d2b7a4f6e93d5c0b1a2e4f7d9"},
	{"GenericToken", "API_TOKEN: " + random20 + "Qq", "API_TOKEN: [REDACTED:generic-secret]", "generic-secret", random20},
	{"GenericBearer", `-H "Authorization: Bearer ` + random20 + `"`, `-H "Authorization: Bearer [REDACTED:generic-secret]"`, "generic-secret", random20},
	{"GenericAPIKeyHeader", "X-Api-Key: " + "3f2a9c1d8e7b6a5f4e3d2c1b0a9f8e7d", "X-Api-Key: [REDACTED:generic-secret]", "generic-secret", "3f2a9c1d8e7b6a5f4e3d2c1b0a9f8e7d"},
	{"GenericJSON", `"access_token": "ya29.` + random20 + `-xY_1"`, `"access_token": "[REDACTED:generic-secret]"`, "generic-secret", random20},
	{"GenericGoLiteral", `apiKey := "` + random20 + `"`, `apiKey := "[REDACTED:generic-secret]"`, "generic-secret", random20},
	{"GenericDjango", `SECRET_KEY = 'django-insecure-` + random20 + `'`, `SECRET_KEY = '[REDACTED:generic-secret]'`, "generic-secret", random20},
}

func TestStringRedactsEachKind(t *testing.T) {
	t.Parallel()
	for _, tt := range positives {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, found := String(tt.in)
			if got != tt.want {
				t.Errorf("String(%q)\n got %q\nwant %q", tt.in, got, tt.want)
			}
			if want := []Finding{{Kind: tt.kind, Count: 1}}; !reflect.DeepEqual(found, want) {
				t.Errorf("findings = %v, want %v", found, want)
			}
			if strings.Contains(got, tt.secret) {
				t.Errorf("secret %q survived in %q", tt.secret, got)
			}
		})
	}
}

// negatives must come through unchanged: code that handles credentials
// without holding any, and text that merely looks random.
var negatives = []string{
	"CACHE_KEY=8c1f0e9d2b7a4f6e93d5c0b1a2e4f7d9",              // a cache key is a hash, no secret
	"STRIPE_PUBLISHABLE_KEY=pk_live_8c1f0e9d2b7a4f6e93d5c0b1", // meant to be public
	// Go
	`password := r.FormValue("password")`,
	`if password == "" { return errEmptyPassword }`,
	`if password == x && password != confirm {`,
	`func checkPassword(password string) error {`,
	`type Config struct { Password string; APIKey string; Token string }`,
	`	Password string ` + "`json:\"password,omitempty\" yaml:\"password\"`",
	`token := strings.Fields(line)[0]`,
	`if secret == "" {`,
	`apiKey string`,
	`secret, err := vault.Read(ctx, path)`,
	`cfg := Config{Password: os.Getenv("DB_PASSWORD"), Token: token}`,
	`db, err := sql.Open("postgres", fmt.Sprintf("password=%s", pw))`,
	`	Password: cfg.Database.Password,`,
	`var passwordRE = regexp.MustCompile("^pass")`,
	`	"password": {Type: "string", MinLength: 12},`,
	`if err := bcrypt.CompareHashAndPassword(hash, []byte(password)); err != nil {`,
	`cmd.Env = append(os.Environ(), "PWD="+cmd.Dir, "HOME="+home)`,
	`var emptyPass pass = pass{name: "x"}`,
	`	SMART_HCYL_PASS = 0xc2`,
	`	encodeUserPassword: "encodeUserPassword",`,
	`	Password: password16,`,
	`	PrivateKey: testRSA2048PrivateKey}}`,
	`const _token_name = "EOFnameliteralopop=opop=:=<-*([{)]},;:....breakcase"`,
	`apiKey := os.Getenv("OPENAI_API_KEY_FOR_TESTS_2")`,
	`token: generateTokenForUser123`,
	`credentials: credentialsProviderV2Impl`,
	`AccessToken: resp.AccessTokenValueString,`,
	// Python
	`password = getpass.getpass("Password: ")`,
	`self.username, self.password = credentials`,
	`password = value`,
	`password = os.environ["DB_PASSWORD"]`,
	`password: str`,
	`password: Optional[str] = None`,
	`auth_header = request.headers.get("Authorization")`,
	`SECRET_KEY = os.environ.get("DJANGO_SECRET_KEY")`,
	`user = User(username=name, password=new_password)`,
	`if not password: raise ValueError("Password is required")`,
	`connect(password=pw)`,
	// JS / TS
	`auth = getAuthToken()`,
	`const token = await getAuthToken();`,
	`apiKey: process.env.OPENAI_API_KEY,`,
	`password: string;`,
	`const { password } = req.body;`,
	`user.password = await bcrypt.hash(password, 10);`,
	`password: z.string().min(8, "Password must be at least 8 characters"),`,
	`errors.password = "Password is too short";`,
	`login({ username, password: hashedPassword });`,
	`password: hash,`,
	`headers: { Authorization: ` + "`Bearer ${token}`" + ` },`,
	`private static final String TOKEN_HEADER = "X-Auth-Token-Header";`,
	// config stand-ins
	`password: ${DB_PASSWORD}`,
	`password=<your password>`,
	`password: "***"`,
	`password: "********"`,
	`password: ""`,
	`password: changeme`,
	`PASSWORD=$DB_PASSWORD`,
	`POSTGRES_PASSWORD: ${POSTGRES_PASSWORD:-postgres}`,
	`password: !vault |`,
	`password: "{{ vault_db_password }}"`,
	`password: your-password-here`,
	`token: ${{ secrets.GITHUB_TOKEN }}`,
	`secretName: my-tls-secret-for-prod-2`,
	`privateKeyPath: ./keys/deploy_ed25519`,
	`auth_type: oauth2_client_credentials`,
	`tokenizer_path: models/tokenizer/vocab_v2.json`,
	`PWD=/home/me/src/api`,
	`OLDPWD=/home/me`,
	`bypass=enabled`,
	`docker run -u 1000:1000 image`,
	`curl -u "$USER:$TOKEN" https://api.example.com`,
	`git push -u origin main`,
	`docker login --password-stdin < token.txt`,
	// prose and markdown
	"Fixed in commit 3f2a9c1d8e7b6a5f4e3d2c1b0a9f8e7d6c5b4a39; the short SHA 3f2a9c1 is in the changelog.",
	"sha256: e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
	"request id 123e4567-e89b-12d3-a456-426614174000 failed",
	"See https://github.com/org/repo/pull/42 and postgres://localhost:5432/db",
	"clone https://user@host.example.com/repo.git or git@github.com:org/repo.git",
	"http://[::1]:8080/health and http://localhost:3000/login?next=/",
	"Upgrade to v1.26.8; go.yaml.in/yaml/v4 v4.0.0 needs Go 1.24.",
	"The auth middleware rewrite is for compliance.",
	"Password: ask Bob, it rotates weekly.",
	"Password: stored in the team vault",
	"pwd: print working directory",
	"Tests pass: all 42 of them.",
	"First pass: 2023-10-01 results were wrong.",
	"Set the access_key_id in ~/.aws/credentials, not in the repo.",
	"The password is stored as a bcrypt hash; the token expires after 1h.",
	"Use --password to be prompted, or --password-file path.",
	"- [Prefer tabs](prefer-tabs.md) — tabs, not spaces",
	"| Name | Type |\n|------|------|\n| password | string |",
	"/etc/passwd: root entry",
	"--- PASS: TestVerboseSkip.* (0.00s)\nPASS\nok  \tgithub.com/memdir/memdir/internal/redact\t0.012s",
	"passwd:         files systemd",
	"# groupname:password:GID:user_list",
	"//	challengePassword = ignored challenge",
	"cache_key = fmt.Sprintf(\"%s:%d\", user, id)",
	"Use tokenizer_config.json from the model folder.",
	"internal/redact/redact_test.go:42: sk-learn is a library",
	"The task-force-report lists ASIA and AKIA as prefixes.",
	"-----BEGIN RSA PRIVATE KEY----- is the first line of a PEM file.",
	"already [REDACTED:password] and password=[REDACTED:password]",
}

func TestStringLeavesOrdinaryTextAlone(t *testing.T) {
	t.Parallel()
	for _, in := range negatives {
		got, found := String(in)
		if got != in || found != nil {
			t.Errorf("String(%q)\n= %q, %v; want it unchanged, no findings", in, got, found)
		}
	}
}

func TestStringIsIdempotent(t *testing.T) {
	t.Parallel()
	var all []string
	for _, p := range positives {
		all = append(all, p.in)
	}
	for _, in := range append(all, strings.Join(all, "\n"), strings.Join(all, " ")) {
		once, _ := String(in)
		twice, found := String(once)
		if twice != once || found != nil {
			t.Errorf("second pass changed\n%q\nto\n%q (%v)", once, twice, found)
		}
	}
}

func TestStringFindsEverySecretInOneText(t *testing.T) {
	t.Parallel()
	in := strings.Join([]string{
		"# deploy notes",
		"aws " + awsKey + " and again " + awsKey,
		"gh " + ghToken + ", fallback " + ghPAT,
		"db: postgres://app:" + "pw123456@db/app",
		"password: " + "hunter22",
		rsaKey,
		"claude " + anthKey + " openai " + openaiKey,
		"webhook_secret=" + random20,
		"done.",
	}, "\n")
	out, found := String(in)
	want := []Finding{
		{"anthropic-key", 1}, {"aws-access-key", 2}, {"generic-secret", 1}, {"github-token", 2},
		{"openai-key", 1}, {"password", 1}, {"private-key", 1}, {"url-password", 1},
	}
	if !reflect.DeepEqual(found, want) {
		t.Errorf("findings = %v\nwant %v", found, want)
	}
	for _, secret := range []string{awsKey, ghToken, ghPAT, "pw123456", "hunter22", keyBody, anthKey, openaiKey, random20} {
		if strings.Contains(out, secret) {
			t.Errorf("%q survived:\n%s", secret, out)
		}
	}
	for _, kept := range []string{"# deploy notes", "postgres://app:", "@db/app", "\ndone."} {
		if !strings.Contains(out, kept) {
			t.Errorf("%q was lost:\n%s", kept, out)
		}
	}
}

func TestStringLongLine(t *testing.T) {
	t.Parallel()
	// Anchors far into a line much longer than the search window count.
	pad := rep("lorem ipsum dolor sit amet ", 1000)
	in := pad + "token=" + random20 + " " + pad + "password=" + "hunter22 " + pad
	want := pad + "token=[REDACTED:generic-secret] " + pad + "password=[REDACTED:password] " + pad
	out, found := String(in)
	if out != want {
		t.Errorf("String(long line) did not redact exactly the two secrets")
	}
	if w := []Finding{{"generic-secret", 1}, {"password", 1}}; !reflect.DeepEqual(found, w) {
		t.Errorf("findings = %v, want %v", found, w)
	}
}

func TestFindingOrderIsStable(t *testing.T) {
	t.Parallel()
	in := "password=" + "hunter22 " + awsKey + " " + jwt + " " + ghToken
	_, first := String(in)
	for range 20 {
		if _, again := String(in); !reflect.DeepEqual(again, first) {
			t.Fatalf("findings changed between calls: %v then %v", first, again)
		}
	}
	for i := 1; i < len(first); i++ {
		if first[i-1].Kind >= first[i].Kind {
			t.Errorf("findings not sorted by kind: %v", first)
		}
	}
}

func FuzzString(f *testing.F) {
	for i := range len(positives) + len(leaks) {
		f.Add("", "", uint8(i))
		f.Add("text before", "after "+positives[(i+1)%len(positives)].in, uint8(i))
	}
	for _, n := range negatives[:10] {
		f.Add(n, n, uint8(0))
	}
	// The positives and the leaks of prose_test.go, each with the secrets
	// that must not survive.
	type seeded struct {
		name, in string
		secrets  []string
	}
	var all []seeded
	for _, p := range positives {
		all = append(all, seeded{p.name, p.in, []string{p.secret}})
	}
	for _, l := range leaks {
		all = append(all, seeded{l.name, l.in, l.secrets})
	}
	f.Fuzz(func(t *testing.T, before, after string, k uint8) {
		// Any text: String is a fixed point of itself.
		fixedPoint(t, before)
		// A seeded secret on a line of its own is always redacted.
		p := all[int(k)%len(all)]
		in := before + "\n" + p.in + "\n" + after
		out := fixedPoint(t, in)
		for _, secret := range p.secrets {
			if !strings.Contains(before+after, secret) && strings.Contains(out, secret) {
				t.Fatalf("%s: secret %q survived in %q", p.name, secret, out)
			}
		}
	})
}

// fixedPoint redacts s, checks that redacting the result changes nothing,
// and returns the result.
func fixedPoint(t *testing.T, s string) string {
	t.Helper()
	out, found := String(s)
	n := 0
	for _, f := range found {
		if f.Count < 1 {
			t.Fatalf("String(%q): finding %v has no count", s, f)
		}
		n += f.Count
	}
	if got := len(markers(out)) - len(markers(s)); got != n {
		t.Fatalf("String(%q) = %q: %d findings but %d new markers", s, out, n, got)
	}
	again, more := String(out)
	if again != out || more != nil {
		t.Fatalf("not a fixed point: %q -> %q -> %q (%v)", s, out, again, more)
	}
	return out
}

// ordinaryText is about 100 KB of code, prose and config without secrets,
// mentioning passwords, tokens and URLs the way notes about code do.
var ordinaryText = func() string {
	chunk := `## Session notes

The auth middleware now checks the token before the handler runs; see
https://github.com/org/repo/pull/42 (commit 3f2a9c1d8e7b6a5f4e3d2c1b0a9f8e7d6c5b4a39).
Tests pass: all 42 of them. The password reset flow sends a one-time link.

` + "```go" + `
func (s *Server) login(w http.ResponseWriter, r *http.Request) {
	password := r.FormValue("password")
	token, err := s.auth.Issue(r.Context(), user, password)
	if err != nil || token == "" {
		http.Error(w, "invalid credentials", http.StatusUnauthorized)
		return
	}
	w.Header().Set("Authorization", "Bearer "+token)
}
` + "```" + `

config.yaml:
    database:
      url: postgres://localhost:5432/app
      password: ${DB_PASSWORD}
    secretName: app-tls-secret
    private: true

Upgrade to v1.26.8, run ` + "`go test ./...`" + ` and check request 123e4567-e89b-12d3-a456-426614174000.
`
	var b strings.Builder
	for i := 0; b.Len() < 100<<10; i++ {
		fmt.Fprintf(&b, "### Note %d\n%s\n", i, chunk)
	}
	return b.String()
}()

func BenchmarkString(b *testing.B) {
	if out, found := String(ordinaryText); out != ordinaryText || found != nil {
		b.Fatalf("ordinary text was redacted: %v", found)
	}
	b.SetBytes(int64(len(ordinaryText)))
	for b.Loop() {
		String(ordinaryText)
	}
}

func BenchmarkStringWithSecrets(b *testing.B) {
	var parts []string
	for _, p := range positives {
		parts = append(parts, p.in)
	}
	text := ordinaryText + strings.Join(parts, "\n")
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		String(text)
	}
}
