package redact

import (
	"strings"
	"testing"
)

// Secrets stated in words or bare, as an outside attack got them to disk
// (issue 12), and the variants a careful attacker would try next. Fakes
// are assembled at run time, as in redact_test.go.
var (
	awsProse    = "wJalrXUtnFEMI/K7MDENG/" + "bPxRfiCYzq8Ht3kLm2" // the issue's, 40 bytes
	vaultLegacy = "s." + fake(5, 24, alnum)
	vaultHVS    = "hvs." + "CAESI" + "-_" + fake(6, 84, alnum+"_-")
	vaultHVB    = "hvb." + "AAAAAQ" + fake(7, 140, alnum+"_-")
	hex32       = "9f86d081884c7d65" + "9a2feaa0c55ad015"
	hex64       = hex32 + "a3bf4f1b2b0b822c" + "d15d6c15b0f00a08"
	whsec       = "whsec_" + fake(8, 32, alnum)
)

type leak struct {
	name, in string
	kinds    []string // every kind reported, sorted
	secrets  []string // parts of in that must not survive
}

// leaks must be redacted. The first ones are the examples verbatim
// (with the elided key id filled in).
var leaks = []leak{
	// passwords given on a command line (a review found them kept)
	{"MysqlAttached", "mysql -u root -p" + "Q3kJ8vN2pL5x -h db.internal app", []string{"password"}, []string{"Q3kJ8vN2pL5x"}},
	{"MysqlUserAttached", "mysqldump -uroot -p" + "X9v!kq2Lm app > dump.sql", []string{"password"}, []string{"X9v!kq2Lm"}},
	{"MysqlQuoted", "mariadb -h h -p'" + "s3cr3t pass" + "' -e 'select 1'", []string{"password"}, []string{"s3cr3t pass"}},
	{"Sshpass", "sshpass -p '" + "Zx9kq2LmP" + "' ssh deploy@host", []string{"password"}, []string{"Zx9kq2LmP"}},
	{"SshpassBare", "sshpass -p" + "Zx9kq2LmP ssh host", []string{"password"}, []string{"Zx9kq2LmP"}},
	// the examples
	{"IssueAWSKeyAndSecret", "key " + awsKey + " secret " + awsProse, []string{"aws-access-key", "aws-secret-key"}, []string{awsKey, awsProse}},
	{"IssueAWSSecretProse", "the aws secret key is " + awsProse, []string{"aws-secret-key"}, []string{awsProse}},
	{"IssueDBPassword", "the db password is " + "hunter2!", []string{"password"}, []string{"hunter2"}},
	{"IssueMyPassword", "my password is " + "hunter2", []string{"password"}, []string{"hunter2"}},
	{"IssuePwd", "pwd " + "hunter2!", []string{"password"}, []string{"hunter2"}},
	{"IssueVaultLegacy", "VAULT_TOKEN " + vaultLegacy, []string{"vault-token"}, []string{vaultLegacy}},
	{"IssueVaultHVS", "vault login " + vaultHVS, []string{"vault-token"}, []string{vaultHVS}},
	{"IssuePostgresBang", "postgres://user:" + "p@ss!w#rd@host/db", []string{"url-password"}, []string{"ss!w#rd", "p@ss"}},
	{"IssueWebhookHex", "webhook secret " + hex64, []string{"generic-secret"}, []string{hex64}},

	// AWS variants
	{"AWSBareAfterKeyID", awsKey + " " + awsProse, []string{"aws-access-key", "aws-secret-key"}, []string{awsKey, awsProse}},
	{"AWSCSVRow", "deploy-bot,," + awsKey + "," + awsProse + ",https://console.aws.amazon.com", []string{"aws-access-key", "aws-secret-key"}, []string{awsProse}},
	{"AWSSnakeAssign", "aws_secret_access_key = " + awsProse, []string{"aws-secret-key"}, []string{awsProse}},
	{"AWSEnvColon", "AWS_SECRET_ACCESS_KEY: " + awsProse, []string{"aws-secret-key"}, []string{awsProse}},
	{"AWSSecretKeyColon", "secret key: " + awsProse, []string{"aws-secret-key"}, []string{awsProse}},
	{"AWSSecretAccessKeyIs", "The Secret Access Key is `" + awsProse + "`.", []string{"aws-secret-key"}, []string{awsProse}},
	{"AWSSecretWas", "aws secret was " + awsProse + " until we rotated it", []string{"aws-secret-key"}, []string{awsProse}},

	// passwords in words
	{"PasswordIsColon", "the password is: " + "Tr0ub4dor&3", []string{"password"}, []string{"Tr0ub4dor"}},
	{"PasswordFor", "the password for staging is " + "hunter2x", []string{"password"}, []string{"hunter2x"}},
	{"PasswordForThreeWords", "The password for the staging db is " + "Tr0ub4dor&3.", []string{"password"}, []string{"Tr0ub4dor"}},
	{"PassIs", "wifi pass is " + "hunter2!", []string{"password"}, []string{"hunter2"}},
	{"PasswordBare", "login as admin with password " + "hunter2x9 on staging", []string{"password"}, []string{"hunter2x9"}},
	{"PasswordQuotedWord", "the root password is `" + "sunflower`", []string{"password"}, []string{"sunflower"}},
	{"PasswordSetTo", "admin password was set to " + "Summer2024!", []string{"password"}, []string{"Summer2024"}},
	{"PasswordNow", "the VPN password is now " + "c0rrect-h0rse", []string{"password"}, []string{"c0rrect-h0rse"}},
	{"PassphraseIs", "GPG passphrase is " + "blue42sky", []string{"password"}, []string{"blue42sky"}},
	{"PasswordPossessive", "the password's " + "hunter2!", []string{"password"}, []string{"hunter2"}},
	{"PasswordArrow", "staging password -> " + "hunter2!", []string{"password"}, []string{"hunter2"}},
	{"PasswordPhraseQuoted", `the db password is "` + `correct horse battery staple"`, []string{"password"}, []string{"correct horse"}},
	{"PasswordNumeric", "the wifi password is " + "48291736.", []string{"password"}, []string{"48291736"}},
	{"PasswordTwoInOneLine", "ssh password is " + "hunter2!, sudo password is " + "hunter3!", []string{"password"}, []string{"hunter2", "hunter3"}},
	{"PasswordUpperCase", "PASSWORD IS " + "HUNTER2!", []string{"password"}, []string{"HUNTER2"}},
	{"PwIs", "my pw is " + "hunter2!", []string{"password"}, []string{"hunter2"}},
	{"PasscodeIs", "the door passcode is " + "482913", []string{"password"}, []string{"482913"}},
	{"PasswordJSONQuoted", `password: "` + "hunter2!" + `"`, []string{"password"}, []string{"hunter2"}},
	{"Passwd", "passwd=" + "hunter2!", []string{"password"}, []string{"hunter2"}},

	// Vault
	{"VaultBatch", "token " + vaultHVB, []string{"vault-token"}, []string{vaultHVB}},
	{"VaultLegacyInQuotes", `client.SetToken("` + vaultLegacy + `")`, []string{"vault-token"}, []string{vaultLegacy}},
	{"VaultEnv", "export VAULT_TOKEN=" + vaultHVS, []string{"vault-token"}, []string{vaultHVS}},

	// database URLs
	{"MySQLURL", "mysql://root:" + "s3cr3t!@db.internal:3306/app", []string{"url-password"}, []string{"s3cr3t"}},
	{"MongoSRV", "mongodb+srv://admin:" + "p#ss!w0rd@cluster0.ab1cd.mongodb.net/app", []string{"url-password"}, []string{"p#ss", "w0rd"}},
	{"RedisNoUser", "redis://:" + "Hunt3r!x@cache:6379/0", []string{"url-password"}, []string{"Hunt3r"}},
	{"PostgresBangFirst", "postgresql://app:" + "!Secr3t@db/app", []string{"url-password"}, []string{"Secr3t"}},

	// secrets next to a keyword
	{"SigningKeyHex", "signing key " + hex64, []string{"generic-secret"}, []string{hex64}},
	{"HMACKeyColon", "HMAC key: " + hex32, []string{"generic-secret"}, []string{hex32}},
	{"WebhookSecretIs", "the webhook secret is " + whsec, []string{"generic-secret"}, []string{whsec}},
	{"SigningSecretHex32", "Slack signing secret " + hex32 + " (prod)", []string{"generic-secret"}, []string{hex32}},
	{"APITokenIs", "our api token is " + random20 + "Zq9", []string{"generic-secret"}, []string{random20}},
	{"TokenDotted", "the access token is ya29." + random20 + "Zq9", []string{"generic-secret"}, []string{random20}},
	{"TokenBare", "use token " + hex64 + " for the webhook", []string{"generic-secret"}, []string{hex64}},
}

func TestStringRedactsLeaks(t *testing.T) {
	t.Parallel()
	for _, tt := range leaks {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, found := String(tt.in)
			var kinds []string
			for _, f := range found {
				kinds = append(kinds, f.Kind)
			}
			if strings.Join(kinds, ",") != strings.Join(tt.kinds, ",") {
				t.Errorf("String(%q) = %q\nkinds %v, want %v", tt.in, got, kinds, tt.kinds)
			}
			for _, s := range tt.secrets {
				if strings.Contains(got, s) {
					t.Errorf("String(%q) = %q: %q survived", tt.in, got, s)
				}
			}
			if again, more := String(got); again != got || more != nil {
				t.Errorf("not a fixed point: %q -> %q", got, again)
			}
		})
	}
}

// keeps must come through unchanged: prose and code about passwords,
// tokens and keys that holds none.
var keeps = []string{
	// a name the way trackers and fleets write them, after "pass" (a
	// satellite pass) or "password"
	"KIR went live on 2026-04-20; its first production pass was HELIO-3 rev 10412",
	"the password rotation ticket is INFRA-2041",
	// command lines without a password on them
	"mysql -u root -p app",
	"mysql -p -h db.internal",
	"mysqldump --single-transaction -p --all-databases",
	"sshpass -f ~/.pw ssh host",
	"the mysql -p flag prompts for the password",
	// the list
	"the password field is required",
	"set a strong password",
	"password reset flow",
	"never put a password in the repo",
	"passwordless login",
	"use GITHUB_TOKEN",
	"the token is 256-bit",
	"access tokens are short-lived",
	"merged 3f2a9c1d8e7b6a5f4e3d2c1b0a9f8e7d6c5b4a39 into main",
	"id 123e4567-e89b-12d3-a456-426614174000",
	`password := r.FormValue("password")`,
	`if password == "" {`,
	`hashPassword(pw)`,
	// more prose
	"The password is required.",
	"The password is stored as a bcrypt hash.",
	"the password is in 1Password under Staging",
	"the password is hashed with sha256 before storage",
	"The password for the admin account is in the vault.",
	"My password is not something I'd share.",
	"Password must be 12-characters or more",
	"the password is 12 characters long",
	"password hashing uses argon2id",
	"Only test-mode Stripe keys go in a local .env, taken from 1Password 'Quayside Dev'", // the password manager and its vault
	"The upload keystore backup is in 1Password \"Driver App – Android\".",
	"change your password every 90 days",
	"pwd prints the working directory; pwd -P resolves symlinks",
	"run pwd && ls -la",
	"first pass was slow, second pass is 3x faster",
	"tests pass on go1.26 and linux/amd64",
	"the secret is in AWS Secrets Manager",
	"the secret key is stored in KMS",
	"the secret key is 40 characters long",
	"the token is DB_API_TOKEN in the .env file",
	"the token is refreshed by the refreshAccessTokenV2 helper",
	"tokens expire after 3600 seconds",
	"the signing key rotates monthly",
	"api key rotation is on the roadmap",
	"the key is 3f2a9c1d8e7b6a5f4e3d2c1b0a9f8e7d6c5b4a39, the commit that fixed it",
	"cache key e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
	"sha1 3f2a9c1d8e7b6a5f4e3d2c1b0a9f8e7d6c5b4a39 and sha256 e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
	"![logo](data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==)",
	"It was a busy week. Tests pass. Its status is green.",
	"the monkey 3f2a9c1d8e7b6a5f4e3d2c1b0a9f8e7d6c5b4a39",
	"see https://example.com:8443/@user/post and http://host:8080/path#frag@x",
	"mailto:bob@example.com and git@github.com:org/repo.git",
	"postgres://user@host:5432/db",
	"the bucket key is logs/2024/11/app.log",
	// more code
	`if password != confirm {`,
	`func hashPassword(pw string) (string, error) {`,
	`var password string`,
	`password, err := readPassword(os.Stdin)`,
	`return password, nil`,
	`password VARCHAR(255) NOT NULL,`,
	`SELECT password FROM users WHERE id = $1`,
	`const password = process.env.DB_PASSWORD;`,
	`if (password === undefined) throw new Error("password is required");`,
	`token := s.NextToken()`,
	`for token != nil { token = token.Next }`,
	`secret, ok := secrets[name]`,
	`func (s *Store) Secret(name string) string { return s.secrets[name] }`,
	`h := hmac.New(sha256.New, signingKey)`,
	`key := fmt.Sprintf("%s/%s", bucket, name)`,
	`s.buf = append(s.buf, b...)`,
	`return s.ReadFromTheDatabaseNow1(ctx)`,
	`t.Setenv("VAULT_TOKEN", "")`,
	`	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)`,
	"pass -- the test framework's keyword",
	"dk.encryptionKey1024 = ek.encryptionKey1024",
	"the password is 8+ chars",
	"password is at least 8 chars",
	"password was leaked in 2023",
	"password is base64-encoded",
	"password is 2FA-protected",
	"the password is OAuth2-based",
	"the pw is in 1password",
	"the password's hash is stored",
	"the password for bob@example.com is required",
	"the passcode is 6 digits",
	"password 123456 is the most common password",
	"password is 20240101 format date",
	"the token is eyJ-prefixed",
	"the secret is rotated every 90 days via k8s/secrets.yaml",
	"api key is in ~/.config/app/key.json",
	"token is github_pat_-style",
	"the session token is stored in an HttpOnly cookie",
	"The signing key is ed25519, stored in KMS",
	"s.Reset(); s.Fields = s.Fields[:0]",
	"x := s.abcdefghijklmnopqrstuvwx",
	"ssh key SHA256:nThbg6kXUpJWGl7E1IGOCspRomTxdCARLviKw6E5SY8",
	"	encryptionKey1024: dk.encryptionKey1024,",
}

func TestStringKeepsProseAndCode(t *testing.T) {
	t.Parallel()
	for _, in := range keeps {
		if got, found := String(in); got != in || found != nil {
			t.Errorf("String(%q)\n= %q, %v; want it unchanged", in, got, found)
		}
	}
}
