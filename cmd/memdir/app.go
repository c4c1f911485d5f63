package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"sync"

	"github.com/memdir/memdir/internal/hint"
	"github.com/memdir/memdir/internal/memdir"
	"github.com/memdir/memdir/internal/paths"
	"github.com/memdir/memdir/internal/workspace"
	"github.com/spf13/cobra"
)

// sys is everything memdir takes from the process: only main builds it from
// the os package, so tests and quickstart can run memdir on other streams,
// another environment and another working directory.
type sys struct {
	stdin          io.Reader
	stdout, stderr io.Writer
	getenv         func(string) string
	cwd            string
}

// app is one invocation: the process's streams plus the global flags.
type app struct {
	sys
	ctx     context.Context
	home    string // --home
	project string // --project
	json    bool   // --json
	global  bool   // --global, or a name written global/<file>
	// printedJSON: the command answered in JSON, so an error is not added
	printedJSON bool
	cmdName     string

	memo     paths.Layout // the last layout resolved, for memoKey
	memoKey  string
	memoDone bool
}

// errSilent ends a command with exit status 1 when it has already said why.
var errSilent = errors.New("silent failure")

func withHint(err error, format string, args ...any) error {
	return hint.With(err, format, args...)
}

// hintFor returns the next step for err (see workspace.HintFor).
func hintFor(err error) string { return workspace.HintFor(err) }

// run is memdir's whole CLI over the given process parts.
func run(ctx context.Context, args []string, s sys) error {
	a := &app{sys: s, ctx: ctx}
	var root *cobra.Command
	if hookCall(args) {
		root = a.hookRootCmd()
	} else {
		root = a.rootCmd()
	}
	root.SetArgs(args)
	root.SetIn(s.stdin)
	root.SetOut(s.stdout)
	root.SetErr(s.stderr)
	cmd, err := root.ExecuteContextC(ctx)
	if err != nil && hintFor(err) == "" && cmd != nil && isUsageError(err) {
		err = withHint(err, "see '%s --help'", cmd.CommandPath())
	}
	if err != nil && a.json && !a.printedJSON && !errors.Is(err, errSilent) && ctx.Err() == nil {
		// A script reading --json gets the error as JSON too (and on
		// stderr as always), unless the command already answered in JSON.
		_ = a.printJSON(struct {
			Error string `json:"error"`
			Hint  string `json:"hint,omitempty"`
		}{err.Error(), hintFor(err)})
	}
	return err
}

// isUsageError reports the errors cobra itself returns for bad flags,
// arguments and commands, which carry no hint of their own.
func isUsageError(err error) bool {
	msg := err.Error()
	for _, p := range []string{"required flag", "unknown command", "unknown flag", "unknown shorthand", "invalid argument", "accepts ", "flag needs an argument"} {
		if strings.Contains(msg, p) {
			return true
		}
	}
	return false
}

// hookCall reports whether args run 'memdir hook': the global flags, then
// the word hook. Anything else, a flag of another kind included, is left
// to the whole command tree.
func hookCall(args []string) bool {
	for i := 0; i < len(args); i++ {
		switch arg := args[i]; {
		case arg == "--home" || arg == "--project":
			i++ // its value
		case arg == "--json" || strings.HasPrefix(arg, "--json=") ||
			strings.HasPrefix(arg, "--home=") || strings.HasPrefix(arg, "--project="):
		default:
			return arg == "hook"
		}
	}
	return false
}

// rootCmd is memdir with all its commands.
func (a *app) rootCmd() *cobra.Command {
	root := a.baseCmd()
	root.Version = workspace.Build().Line()
	addTemplateFuncs()
	root.SetVersionTemplate(`{{if eq (.Flags.Lookup "json").Value.String "true"}}{{memdirBuildJSON}}{{else}}memdir {{.Version}}{{end}}` + "\n")
	root.AddCommand(
		a.initCmd(), a.saveCmd(), a.listCmd(), a.showCmd(), a.editCmd(), a.forgetCmd(),
		a.indexCmd(), a.whereCmd(), a.doctorCmd(), a.quickstartCmd(), a.transcriptsCmd(), a.contextCmd(), a.searchCmd(), a.recallCmd(), a.hookCmd(), a.installCmd(), a.uninstallCmd(), a.mcpCmd(), a.extractMemoriesCmd(), a.restoreCmd(), a.versionCmd(),
		a.synthesizeCmd(), a.decayCmd(), a.pinCmd(false), a.pinCmd(true), a.dreamCmd(), a.verifyCmd(), a.markCmd(),
		a.teamCmd(), a.shareCmd(false), a.shareCmd(true), a.diaryCmd(), a.patternsCmd(),
	)
	root.InitDefaultCompletionCmd()
	strictParents(root)
	return root
}

// strictParents makes each command that only groups others ("diary",
// "completion") print its help when run alone and refuse a word it does
// not know, as "team" does: cobra would print the help and exit 0 for
// "memdir diary lsit".
func strictParents(cmd *cobra.Command) {
	for _, c := range cmd.Commands() {
		strictParents(c)
	}
	if cmd.HasParent() && !cmd.Runnable() && cmd.HasSubCommands() {
		cmd.Args = cobra.NoArgs
		cmd.RunE = func(cmd *cobra.Command, _ []string) error { return cmd.Help() }
	}
}

// addTemplateFuncs gives cobra's templates the build's JSON, made only when
// --version --json asks for it: encoding it cost every command a third of
// a millisecond. Once, as cobra's functions are global.
var addTemplateFuncs = sync.OnceFunc(func() {
	cobra.AddTemplateFunc("memdirBuildJSON", func() string { return workspace.Build().JSON() })
})

// hookRootCmd is memdir with only its hook command, the same to the hook
// (its flags, help and errors), for a process that runs a hook: it runs on
// every prompt, and building the other twenty commands with their flags,
// the version and cobra's completion command cost it a millisecond (issue
// 13). The hook cannot reach --version, a flag of the root alone.
func (a *app) hookRootCmd() *cobra.Command {
	root := a.baseCmd()
	root.CompletionOptions.DisableDefaultCmd = true
	root.AddCommand(a.hookCmd())
	return root
}

// baseCmd is the root command with the global flags, and no command.
func (a *app) baseCmd() *cobra.Command {
	root := &cobra.Command{
		Use:           "memdir",
		Short:         "Long-term memory for AI coding agents, in plain markdown files",
		Long:          longHelp("memdir"),
		SilenceUsage:  true,
		SilenceErrors: true,
		PersistentPreRunE: func(cmd *cobra.Command, _ []string) error {
			a.cmdName = cmd.CommandPath()
			if f := cmd.Flags().Lookup("scope"); a.global && f != nil && f.Changed && f.Value.String() == memdir.ScopeTeam {
				return withHint(errors.New("--global and --scope team: your global memories are private"), "leave out one of them")
			}
			return nil
		},
	}
	pf := root.PersistentFlags()
	pf.StringVar(&a.home, "home", "", "agent home folder (default $MEMDIR_HOME, $CLAUDE_CONFIG_DIR or ~/.claude)")
	pf.StringVar(&a.project, "project", "", "project folder (default: the git root of the working directory)")
	pf.BoolVar(&a.json, "json", false, "print JSON on stdout")
	pf.BoolVar(&a.global, "global", false, "work on your global memories (<home>/memory/user: the user memories recalled in every project) instead of the project's")
	root.SetFlagErrorFunc(func(cmd *cobra.Command, err error) error {
		return withHint(err, "see '%s --help'", cmd.CommandPath())
	})
	return root
}

// layout resolves where things live for this invocation, once per
// working directory, project and home (a hook resolves it several times).
func (a *app) layout() (paths.Layout, error) {
	key := a.cwd + "\x00" + a.project + "\x00" + a.home + "\x00" + strconv.FormatBool(a.global)
	if a.memoDone && a.memoKey == key {
		return a.memo, nil
	}
	l, err := a.resolveLayout()
	if err == nil {
		a.memo, a.memoKey, a.memoDone = l, key, true
	}
	return l, err
}

func (a *app) resolveLayout() (paths.Layout, error) { return a.env().Layout() }

// env is what the workspace layer knows of this invocation.
func (a *app) env() workspace.Env {
	return workspace.Env{Getenv: a.getenv, Cwd: a.cwd, HomeFlag: a.home, ProjectFlag: a.project, Global: a.global, Holder: a.cmdName}
}

// workspace opens the project's memory folder. With create unset, a folder
// that does not exist yet is reported with a hint to save a first memory.
func (a *app) workspace(create bool) (*workspace.Workspace, error) {
	ws, _, err := a.openWorkspace(create)
	return ws, err
}

// store is workspace for the commands that only need the store.
func (a *app) store(create bool) (*memdir.Store, paths.Layout, error) {
	ws, l, err := a.openWorkspace(create)
	if err != nil {
		return nil, l, err
	}
	return ws.Store, l, nil
}

// scoped opens the folder of scope: "" or private is the project's own
// (as workspace), team is its team folder (workspace.OpenTeam).
func (a *app) scoped(scope string, create bool) (*workspace.Workspace, paths.Layout, error) {
	switch scope {
	case "", memdir.ScopePrivate:
		return a.openWorkspace(create)
	case memdir.ScopeTeam:
		if a.global {
			return nil, paths.Layout{}, withHint(errors.New("--global and --scope team: your global memories are private"), "leave out one of them")
		}
		l, err := a.layout()
		if err == nil {
			err = a.env().CheckProject()
		}
		if err != nil {
			return nil, l, err
		}
		ws, err := workspace.OpenTeam(a.env(), l, create)
		return ws, l, err
	}
	return nil, paths.Layout{}, withHint(fmt.Errorf("invalid scope %q", scope), "use --scope private or --scope team")
}

func (a *app) openWorkspace(create bool) (*workspace.Workspace, paths.Layout, error) {
	l, err := a.layout()
	if err == nil {
		err = a.env().CheckProject()
	}
	if err != nil {
		return nil, l, err
	}
	ws, err := workspace.OpenLayout(a.env(), l, create)
	return ws, l, err
}

// printJSON writes v as indented JSON on stdout.
func (a *app) printJSON(v any) error {
	a.printedJSON = true
	return printJSONTo(a.stdout, v)
}

// printJSONTo writes v as indented JSON on w.
func printJSONTo(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

func (a *app) printf(format string, args ...any) {
	fmt.Fprintf(a.stdout, format, args...)
}

func (a *app) warnf(format string, args ...any) {
	fmt.Fprintf(a.stderr, "memdir: warning: "+format+"\n", args...)
}

// wordsArgs takes one or more words, which the command joins with spaces.
func wordsArgs(what string) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		return exactArgs(1, what)(cmd, args[:min(len(args), 1)])
	}
}

// exactArgs is cobra.ExactArgs with an error that says what to type.
func exactArgs(n int, what string) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if len(args) > n && n == 1 {
			return withHint(fmt.Errorf("%s takes %s, not %d words", cmd.CommandPath(), what, len(args)), "quote a name of several words (\"%s\"); see '%s --help'", strings.Join(args, " "), cmd.CommandPath())
		}
		if len(args) != n {
			return withHint(fmt.Errorf("%s needs %s", cmd.CommandPath(), what), "see '%s --help'", cmd.CommandPath())
		}
		return nil
	}
}

// isTerminal reports whether r is an interactive terminal.
func isTerminal(r any) bool {
	f, ok := r.(*os.File)
	if !ok {
		return false
	}
	info, err := f.Stat()
	if err != nil || info.Mode()&os.ModeCharDevice == 0 {
		return false
	}
	// /dev/null is a character device too, but nobody reads it.
	null, err := os.Stat(os.DevNull)
	return err != nil || !os.SameFile(info, null)
}

// version is memdir's release; MCP clients see it too.
const version = workspace.Version

func (a *app) versionCmd() *cobra.Command {
	return &cobra.Command{
		Use: "version", Short: "Print memdir's version (as --version does)", Args: cobra.NoArgs,
		Example: "  memdir version\n  memdir version --json",
		RunE: func(cmd *cobra.Command, _ []string) error {
			if a.json {
				a.printedJSON = true
				a.printf("%s\n", workspace.Build().JSON())
				return nil
			}
			a.printf("memdir %s\n", workspace.Build().Line())
			return nil
		},
	}
}
