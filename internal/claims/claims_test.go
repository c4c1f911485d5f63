package claims

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// c writes claims compactly: "path:src/app.go", "flag:-race@go".
func c(specs ...string) []Claim {
	var out []Claim
	for _, s := range specs {
		k, text, _ := strings.Cut(s, ":")
		cl := Claim{Kind: Kind(k), Text: text}
		if k == string(Flag) {
			if t, cmd, ok := strings.Cut(text, "@"); ok {
				cl.Text, cl.Command = t, cmd
			}
		}
		out = append(out, cl)
	}
	return out
}

func TestFind(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, text string
		want       []Claim
	}{
		{"Prose", "The user prefers short answers and likes to review diffs before merging. Deploys happen on Fridays, e.g. after the standup; i.e. never on a Monday.", nil},
		{"ProseSlashesAndVersions", "We support read/write and client/server setups, and/or both. CI/CD runs on v1.2.3 and 2.0.1; Node.js 20 and Vue.js too. Dates like 2026/11/25 are not paths.", nil},
		{"ProseCapitalised", "Talk to Alice about the PostgreSQL migration. GitHub Actions and JavaScript are fine. TODO: nothing.", nil},
		{"ProjectMemory", "---\nMerge freeze begins 2026-03-05 for the mobile release cut.\n\n**Why:** the auth middleware rewrite is driven by legal/compliance requirements, not tech-debt cleanup.\n**How to apply:** flag any non-critical PR for after 03/05; scope decisions should favor compliance over ergonomics.\n", nil},
		{"UserMemory", "The user is a data scientist focused on observability/logging, ten years of Go, new to React and this repo's frontend. Frame frontend explanations in terms of backend analogues.", nil},
		{"ReferenceMemory", "Pipeline bugs are tracked in Linear project \"INGEST\"; the oncall latency dashboard is grafana.internal/d/api-latency.", nil},
		{"PathsInProse", "The config loader lives in src/app.go; the deploy script is ./scripts/x.sh and the docs are in docs/README.md. See internal/recall for ranking.",
			c("path:src/app.go", "path:scripts/x.sh", "path:docs/README.md", "path:internal/recall")},
		{"PathsWithPositions", "Bug at internal/store/store.go:120 and `pkg/api/handler.go#L12-L20`, also go.mod and Makefile.",
			c("path:internal/store/store.go", "path:pkg/api/handler.go", "path:go.mod", "path:Makefile")},
		{"Symbols", "Call `ParseConfig()` before `Store.Save`; `load_settings` and `maxRetries` are in the same file. In prose, os.Getenv and NewClient() count; plain words like `vendor` do not.",
			c("symbol:ParseConfig", "symbol:Store.Save", "symbol:os.Getenv", "symbol:NewClient")},
		{"SymbolCalledWithArgs", "Use `store.Save(ctx, m)` to write.", c("symbol:store.Save")},
		{"Flags", "Pass `--dry-run` first (a flag of no command), and run go test with -race. Plain prose --like-this is no flag.",
			c("flag:-race@go")},
		{"Commands", "Run `make test` before pushing; lint with `npm run lint`; `go test ./...` for everything; deploy with `./scripts/deploy.sh --env prod`.",
			c("command:make test", "command:npm run lint", "command:go test", "command:./scripts/deploy.sh", "flag:--env@./scripts/deploy.sh")},
		{"CommandWithFlagAndPath", "`go test -race -run TestStore ./internal/memdir`",
			c("command:go test", "flag:-race@go", "flag:-run@go", "path:internal/memdir")},
		{"ChainedCommands", "`make build && ./bin/app serve --port=8080`",
			c("command:make build", "command:./bin/app", "flag:--port@./bin/app")},
		{"Packages", "We added it with `go get github.com/spf13/cobra@v1.8.0`; the UI needs npm install react-query zod; a list after a comma is prose, zod. Import github.com/memdir/memdir/internal/paths for names.",
			c("command:go get", "package:github.com/spf13/cobra", "package:github.com/memdir/memdir/internal/paths")},
		{"PipAndScoped", "`pip install requests==2.31.0` and `npm install @types/node@20`",
			c("command:pip install", "package:requests", "command:npm install", "package:@types/node")},
		{"URLs", "Dashboards at https://grafana.example.com/d/abc (ask ops), runbook <http://wiki.local/runbook>.",
			c("url:https://grafana.example.com/d/abc", "url:http://wiki.local/runbook")},
		{"URLNotPath", "See `https://github.com/memdir/memdir/blob/main/README.md`.", c("url:https://github.com/memdir/memdir/blob/main/README.md")},
		{"FencedShell", "Release steps:\n```sh\n$ make release VERSION=1.2.0\ngit tag -s v1.2.0\n```\n",
			c("command:make release", "command:git tag", "flag:-s@git")},
		{"FencedGoCodeNothing", "Pattern:\n```go\nif err != nil {\n\treturn fmt.Errorf(\"read index: %w\", err)\n}\n```\n", nil},
		{"Deduplicated", "Edit src/app.go, then src/app.go again, and `src/app.go` once more.", c("path:src/app.go")},
		{"NotFiles", "Every new `_test.go` file; the board at grafana.example.com/d/api-latency.", nil},
		{"DotFiles", "Secrets go in .env (never committed) and CI in .github/workflows/ci.yml; ignores in .gitignore.", c("path:.github/workflows/ci.yml", "path:.gitignore")},
		{"AbsolutePathNotProject", "Logs are in /var/log/app.log and C:/temp/x.txt.", nil},
		{"ScriptInProseWithFlag", "Deploy with scripts/deploy.sh --force when stuck.", c("path:scripts/deploy.sh", "flag:--force@scripts/deploy.sh")},
		{"FeedbackMemory", "---\nDon't mock the database in tests.\n\n**Why:** prior incident where mocked tests passed but the prod migration failed.\n**How to apply:** integration tests hit a real Postgres via `docker compose up -d db`.\n",
			c("command:docker compose", "flag:-d@docker")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got := Find(tt.text)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Find(%q) (-want +got):\n%s", tt.text, diff)
			}
		})
	}
}

func TestClassify(t *testing.T) {
	t.Parallel()
	tests := []struct {
		ref  string
		want Kind
	}{
		{"internal/store/store_test.go", Path},
		{"src/app.go:12", Path},
		{"internal/recall", Path},
		{"Makefile", Path},
		{"TestStore_Put", Symbol},
		{"recall.Select", Symbol},
		{"internal/recall.Select", Symbol},
		{"os.Getenv", Symbol},
		{"ParseConfig()", Symbol},
		{"--dry-run", Flag},
		{"-race", Flag},
		{"make test", Command},
		{"prettier", Command},
		{"npm run lint", Command},
		{"github.com/spf13/cobra", Package},
		{"https://example.com/a/b", URL},
		{"/etc/hosts", Symbol},
	}
	for _, tt := range tests {
		if got := Classify(tt.ref); got != tt.want {
			t.Errorf("Classify(%q)=%s, want %s", tt.ref, got, tt.want)
		}
	}
}

func TestPathOf(t *testing.T) {
	t.Parallel()
	for ref, want := range map[string]string{
		"./scripts/x.sh": "scripts/x.sh", "a/b.go:12:3": "a/b.go", "docs/README.md#L3": "docs/README.md",
		"e.g.": "", "i.e.": "", "1.2.3": "", "v1.2.3": "", "Node.js": "", "and/or": "and/or", "./...": "", "github.com/a/b": "",
	} {
		got, ok := PathOf(ref)
		if got != want || ok != (want != "") {
			t.Errorf("PathOf(%q)=%q,%v, want %q", ref, got, ok, want)
		}
	}
}

func FuzzFind(f *testing.F) {
	f.Add("Run `make test` in src/app.go with --dry-run, see https://x.y/z and ParseConfig().")
	f.Add("```\n$ go get a.b/c@v1\n```")
	f.Fuzz(func(t *testing.T, s string) {
		seen := map[string]bool{}
		for _, cl := range Find(s) {
			key := fmt.Sprint(cl.Kind, cl.Text)
			if cl.Text == "" || seen[key] {
				t.Fatalf("Find(%q) gave an empty or repeated claim %+v", s, cl)
			}
			seen[key] = true
		}
	})
}

// TestFindOrdinaryProse: ordinary sentences a memory holds name nothing to
// check (a reviewer found each read as a claim, and so each memory stale).
func TestFindOrdinaryProse(t *testing.T) {
	t.Parallel()
	for _, s := range []string{
		"Always run npm install after pulling main.",
		"Use go get to add dependencies, never edit go.sum by hand.",
		"The nightly deploy runs at 9 a.m. and the report at 5 p.m. every day.",
		"We use Day.js instead of Moment.js for dates.",
		"The web/mobile clients share one API; keep public/private keys in the vault.",
		"Deploys go dev/staging/prod in that order.",
		"Never pass `--force` when pushing; use `--force-with-lease`.",
		"Use `snake_case` for JSON keys and `camelCase` in TypeScript.",
		"Set `ANTHROPIC_API_KEY` before running the evals.",
		"Install goimports with go install golang.org/x/tools/cmd/goimports@latest",
		"Keep secrets in .env, never committed.",
		"The user prefers terse answers, e.g. no summaries at the end.",
		"Read/write access needs the admin role; CI/CD runs on GitHub Actions.",
		"The user is a Ph.D. student who uses Vim.",
		"Tools: `go install golang.org/x/tools/cmd/stringer@latest`, `npx prettier --check .`, `pip install --user black`.",
	} {
		for _, cl := range Find(s) {
			// A command is looked up on PATH, and a flag of another
			// program's is not looked up (verify says so).
			if !cl.Negated && cl.Kind != Command && (cl.Kind != Flag || cl.Command == "") {
				t.Errorf("Find(%q) found %+v, want nothing to check", s, cl)
			}
		}
	}
}

func TestFindNegated(t *testing.T) {
	t.Parallel()
	tests := []struct {
		text      string
		neg, kept []string // claim texts negated, and not
	}{
		{"Never use `time.Sleep` in tests; use `clock.Advance()`.", []string{"time.Sleep"}, []string{"clock.Advance"}},
		{"Don't call `LoadCache()`, avoid `FlushAll()`, use `Store.Save` instead.", []string{"LoadCache", "FlushAll"}, []string{"Store.Save"}},
		{"`OldClient` is gone; `NewClient()` does it now.", []string{"OldClient"}, []string{"NewClient"}},
		{"The build no longer uses scripts/gen.sh but `make gen`.", []string{"scripts/gen.sh"}, []string{"make gen"}},
		{"Use `Store.Put` instead of `Store.Save`.", []string{"Store.Save"}, []string{"Store.Put"}},
		{"Avoid `Store.Save` here. Elsewhere `Store.Save` is right.", nil, []string{"Store.Save"}},
	}
	for _, tt := range tests {
		got := map[string]bool{}
		for _, cl := range Find(tt.text) {
			got[cl.Text] = cl.Negated
		}
		for _, n := range tt.neg {
			if neg, ok := got[n]; !ok || !neg {
				t.Errorf("Find(%q): %s found %v, negated %v; want negated", tt.text, n, ok, neg)
			}
		}
		for _, n := range tt.kept {
			if neg, ok := got[n]; !ok || neg {
				t.Errorf("Find(%q): %s found %v, negated %v; want plain", tt.text, n, ok, neg)
			}
		}
	}
}
