package redact

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// Fake credentials are assembled at run time so that this file does not
// itself look like it leaks secrets to a scanner.
var (
	rep        = strings.Repeat
	awsKey     = "AKIA" + "IOSFODNN7EXAMPLE"
	awsSecret  = "wJalrXUtnFEMI/K7MDENG/bPxRfiCY" + "EXAMPLEKEY"
	gcpKey     = "AIza" + "SyD-9tSrke72PouQMnMX-a7eZSW0jkFMBWY"
	ghToken    = "ghp_" + rep("a1B2", 9)
	ghPAT      = "github_pat_" + rep("A", 22) + "_" + rep("b", 59)
	glToken    = "glpat-" + rep("x9Y8", 5)
	slackTok   = "xoxb-" + "1234567890-0987654321-" + rep("Ab", 12)
	slackHook  = "https://hooks.slack.com/services/" + "T000AAAA/B000BBBB/" + rep("Xy", 12)
	stripeKey  = "sk_live_" + rep("4eC39HqLyjWDarjtT1zdp7dc", 1)
	openaiKey  = "sk-proj-" + rep("Ab3D", 12)
	openaiOld  = "sk-" + rep("aB3d", 12)
	anthKey    = "sk-ant-api03-" + rep("Zx9_", 20) + "AA"
	jwt        = "eyJhbGciOiJIUzI1NiJ9" + ".eyJzdWIiOiIxMjM0NTY3ODkwIn0" + ".dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U"
	azureKey   = rep("Q", 40) + rep("w9", 22) + "abcd" + "=="
	azureSec   = "Zk8Q~" + rep("a1-B", 8) + "xy"
	privateKey = "-----BEGIN RSA " + "PRIVATE KEY-----\nMIIEowIBAAKCAQEA7\nabc\n-----END RSA PRIVATE KEY-----"
	saKeyID    = rep("0a1b2c3d4e", 4)
	genericVal = "Zq7vN2xK9pL4mR8tW3yB"
)

func TestString_Kinds(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, in, want, kind string
	}{
		{"AWSAccessKey", "key " + awsKey + " here", "key [REDACTED:aws-access-key] here", "aws-access-key"},
		{"AWSSecret", "aws_secret_access_key = " + awsSecret, "aws_secret_access_key = [REDACTED:aws-secret-key]", "aws-secret-key"},
		{"GCPKey", "maps key: " + gcpKey, "maps key: [REDACTED:gcp-api-key]", "gcp-api-key"},
		{"GCPServiceAccount", `"private_key_id": "` + saKeyID + `",`, `"private_key_id": "[REDACTED:gcp-service-account]",`, "gcp-service-account"},
		{"AzureStorage", "DefaultEndpointsProtocol=https;AccountName=x;AccountKey=" + azureKey + ";EndpointSuffix=core", "DefaultEndpointsProtocol=https;AccountName=x;AccountKey=[REDACTED:azure-storage-key];EndpointSuffix=core", "azure-storage-key"},
		{"AzureClientSecret", "AZURE_CLIENT_SECRET=" + azureSec, "AZURE_CLIENT_SECRET=[REDACTED:azure-client-secret]", "azure-client-secret"},
		{"GitHub", "token " + ghToken, "token [REDACTED:github-token]", "github-token"},
		{"GitHubPAT", ghPAT + " is mine", "[REDACTED:github-token] is mine", "github-token"},
		{"GitLab", "use " + glToken, "use [REDACTED:gitlab-token]", "gitlab-token"},
		{"Slack", "bot " + slackTok, "bot [REDACTED:slack-token]", "slack-token"},
		{"SlackWebhook", "post to " + slackHook, "post to [REDACTED:slack-webhook]", "slack-webhook"},
		{"Stripe", "stripe " + stripeKey, "stripe [REDACTED:stripe-key]", "stripe-key"},
		{"OpenAIProject", "OPENAI " + openaiKey, "OPENAI [REDACTED:openai-key]", "openai-key"},
		{"OpenAILegacy", "old " + openaiOld + ".", "old [REDACTED:openai-key].", "openai-key"},
		{"Anthropic", "claude " + anthKey, "claude [REDACTED:anthropic-key]", "anthropic-key"},
		{"JWT", "Bearer " + jwt, "Bearer [REDACTED:jwt]", "jwt"},
		{"PrivateKey", "key:\n" + privateKey + "\nend", "key:\n[REDACTED:private-key]\nend", "private-key"},
		{"PrivateKeyTruncated", "-----BEGIN OPENSSH " + "PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAA", "[REDACTED:private-key]", "private-key"},
		{"URLPassword", "postgres://app:" + "s3cretpw@db.internal:5432/app", "postgres://app:[REDACTED:url-password]@db.internal:5432/app", "url-password"},
		{"PasswordEquals", "password=" + "hunter22", "password=[REDACTED:password]", "password"},
		{"PasswordYAML", "db:\n  password: " + "correct-horse", "db:\n  password: [REDACTED:password]", "password"},
		{"PasswordJSON", `{"password": "` + "tr0ub4dor" + `"}`, `{"password": [REDACTED:password]}`, "password"},
		{"PasswordEnv", "DB_PASSWORD=" + "pa55word!", "DB_PASSWORD=[REDACTED:password]", "password"},
		{"GenericSecret", "webhook_secret = " + genericVal, "webhook_secret = [REDACTED:generic-secret]", "generic-secret"},
		{"GenericToken", "API_TOKEN: " + genericVal + "Qq", "API_TOKEN: [REDACTED:generic-secret]", "generic-secret"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, found := String(tt.in)
			if got != tt.want {
				t.Errorf("String()=%q, want %q", got, tt.want)
			}
			if want := []Finding{{Kind: tt.kind, Count: 1}}; !cmp.Equal(found, want) {
				t.Errorf("findings=%v, want %v", found, want)
			}
		})
	}
}

func TestString_NoFalsePositives(t *testing.T) {
	t.Parallel()
	inputs := []string{
		`password := r.FormValue("password")`,
		`if password == "" { return errEmpty }`,
		`func checkPassword(password string) error`,
		`type Config struct { Password string; APIKey string }`,
		`token := strings.Fields(line)[0]`,
		`secret, err := vault.Read(ctx, path)`,
		`auth = getAuthToken()`,
		`apiKey: process.env.OPENAI_API_KEY`,
		`password: ${DB_PASSWORD}`,
		`password=<your password>`,
		`password: "***"`,
		"Fixed in commit 3f2a9c1d8e7b6a5f4e3d2c1b0a9f8e7d6c5b4a39 and 3f2a9c1.",
		"sha256: e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
		"request id 123e4567-e89b-12d3-a456-426614174000 failed",
		"See https://github.com/org/repo/pull/42 and postgres://localhost:5432/db",
		"clone https://user@host.example.com/repo.git",
		"Upgrade to v1.26.8 and go.yaml.in/yaml/v4 v4.0.0",
		"The auth middleware rewrite is for compliance.",
		"Set the access_key_id in ~/.aws/credentials, not in the repo.",
		"- [Prefer tabs](prefer-tabs.md) — tabs, not spaces",
		"cache_key = fmt.Sprintf(\"%s:%d\", user, id)",
		"Use tokenizer_config.json from the model folder.",
		"internal/redact/redact_test.go:42: sk-learn is a library",
	}
	for _, in := range inputs {
		got, found := String(in)
		if got != in || len(found) != 0 {
			t.Errorf("String(%q)=%q, %v; want unchanged", in, got, found)
		}
	}
}

func TestString_Many(t *testing.T) {
	t.Parallel()
	in := strings.Join([]string{
		"aws " + awsKey, "gh " + ghToken, "gh2 " + ghToken, "url https://u:" + "pw123456@h/x", privateKey,
	}, "\n")
	out, found := String(in)
	want := []Finding{{"aws-access-key", 1}, {"github-token", 2}, {"private-key", 1}, {"url-password", 1}}
	if !cmp.Equal(found, want) {
		t.Errorf("findings=%v, want %v", found, want)
	}
	for _, secret := range []string{awsKey, ghToken, "pw123456", "MIIEowIBAAKCAQEA7"} {
		if strings.Contains(out, secret) {
			t.Errorf("%q survived:\n%s", secret, out)
		}
	}
}

func TestString_Idempotent(t *testing.T) {
	t.Parallel()
	in := "password=" + "hunter22 and " + ghToken + " and webhook_secret=" + genericVal
	once, _ := String(in)
	twice, found := String(once)
	if twice != once || len(found) != 0 {
		t.Errorf("second pass changed %q to %q (%v)", once, twice, found)
	}
}

func FuzzString(f *testing.F) {
	for _, s := range []string{awsKey, ghToken, jwt, privateKey, "password=" + "hunter22", "ok text", "postgres://a:" + "b1234@c"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		out, _ := String(s)
		again, found := String(out)
		if again != out || len(found) != 0 {
			t.Fatalf("not a fixed point: %q → %q → %q (%v)", s, out, again, found)
		}
	})
}

func BenchmarkString(b *testing.B) {
	text := strings.Repeat("An ordinary paragraph about the billing service, its retries (3, with backoff), and commit 3f2a9c1. ", 1000)
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		String(text)
	}
}
