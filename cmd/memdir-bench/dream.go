package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/memdir/memdir/internal/consolidate"
	"github.com/memdir/memdir/internal/hint"
	"github.com/memdir/memdir/internal/memdir"
	"github.com/memdir/memdir/internal/paths"
	"github.com/memdir/memdir/internal/usage"
	"github.com/memdir/memdir/internal/workspace"
	"github.com/spf13/cobra"
)

// dreamDir is where the labelled dream set lives (issue 18), relative to
// the module root.
const dreamDir = "internal/consolidate/testdata/dream"

// dreamHalves are the labelled folders, in the order they were written;
// dreamTuned those whose misses --verbose lists: the others are scored
// only.
var (
	dreamHalves = []string{"tune", "heldout", "fresh", "fresh2", "fresh3", "fresh4", "fresh5", "fresh6", "fresh7", "fresh8", "fresh9", "fresh10", "fresh11", "fresh12", "fresh13", "fresh14", "fresh15", "fresh16", "fresh17", "fresh18", "fresh19", "fresh20", "fresh21", "fresh22", "fresh23", "fresh24", "fresh25", "fresh26", "fresh27", "fresh28", "fresh29", "fresh30", "fresh31", "fresh32", "fresh33", "fresh34", "fresh35", "fresh36", "fresh37", "fresh38", "fresh39", "fresh40", "fresh41", "fresh42", "fresh43", "fresh44", "fresh45", "fresh46", "fresh47", "fresh48", "fresh49", "fresh50", "fresh51"}
	dreamTuned  = []string{"tune", "fresh3", "fresh8", "fresh9", "fresh12", "fresh13", "fresh16", "fresh18", "fresh19", "fresh22", "fresh23", "fresh24", "fresh25", "fresh28", "fresh29", "fresh32", "fresh33", "fresh36", "fresh37", "fresh40", "fresh42", "fresh44", "fresh46", "fresh48", "fresh50", "m1", "m2", "m3", "m4", "m7", "m8", "m9", "m10", "m11", "m12", "m13", "m14", "m15", "m16"}
	mergeSets   = []string{"m1", "m2", "m3", "m4", "m5", "m6", "m7", "m8", "m9", "m10", "m11", "m12", "m13", "m14", "m15", "m16", "m17", "m18"}
)

// dreamFallback is the time a labelled memory without created or updated
// is anchored on: its file's mtime, set to what the set's own test uses.
var dreamFallback = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

// dreamHalf is one half's figures.
type dreamHalf struct {
	Half     string             `json:"half"`
	Memories int                `json:"memories"`
	Engine   string             `json:"engine"`
	Report   consolidate.Report `json:"report"`
	Millis   float64            `json:"plan_ms"`
}

func (b *bench) dreamCmd() *cobra.Command {
	var set, dir, merges, engine string
	var verbose, train, check, cv bool
	cmd := &cobra.Command{
		Use:   "dream",
		Short: "Score memdir dream's plan on the labelled messy folders",
		Long: `dream copies each half of the labelled dream set (` + dreamDir + `:
messy memory folders with the plan a careful person would make) into a
throwaway agent home, runs the same consolidation 'memdir dream --dry-run'
runs, and scores the plan against the labels: precision and recall per kind
of operation (merge, supersede, date, expire, prune, shorten), and the
violations (a pinned or untouched memory retired, a merge that lost a fact),
and how many missed operations were at least left for a model to judge.
The merge folders (` + mergesDir + `: duplicates told in other words,
and look-alikes) are scored the same way.

Whether two memories are one is decided by a small learned model, the
sameness model. --train fits it on the learning folders (the dream halves
tune, heldout, fresh, fresh3 and fourteen merge folders) and writes it; --check
only says whether the file is up to date; --cv leaves each learning folder
out in turn and scores its merges at thresholds around the one used.
fresh2, fresh4, fresh5, fresh6, fresh7, fresh10, fresh11, fresh14, fresh15,
fresh17, m5, m6, m17 and m18 are only ever scored, and their violations are
counted, never named. --verbose lists the misses of the halves tuned on.`,
		Example: `  go run ./cmd/memdir-bench dream
  go run ./cmd/memdir-bench dream --set heldout --json
  go run ./cmd/memdir-bench dream --set m3 --verbose
  go run ./cmd/memdir-bench dream --cv`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			switch {
			case train || check:
				return b.writeSameness(dir, merges, check)
			case cv:
				return b.samenessCV(dir, merges)
			}
			halves := slices.Clone(dreamHalves)
			sets := map[string][]string{}
			for _, h := range halves {
				sets[h] = []string{filepath.Join(dir, h)}
				sets["combined"] = append(sets["combined"], filepath.Join(dir, h))
			}
			for _, h := range mergeSets {
				sets[h] = []string{filepath.Join(merges, h)}
			}
			switch set {
			case "all":
				halves = append(halves, "combined")
				halves = append(halves, mergeSets...)
			case "combined":
				halves = []string{set}
			default:
				if sets[set] == nil {
					return hint.With(fmt.Errorf("--set %q", set), "use %s, %s, combined (all halves in one folder) or all", strings.Join(dreamHalves, ", "), strings.Join(mergeSets, ", "))
				}
				halves = []string{set}
			}
			var out []dreamHalf
			for _, h := range halves {
				r, err := b.dreamHalf(sets[h], h, engine)
				if err != nil {
					return err
				}
				out = append(out, r)
			}
			if b.json {
				return json.NewEncoder(b.stdout).Encode(out)
			}
			for _, r := range out {
				fmt.Fprintf(b.stdout, "%s: %d memories, %s engine, planned in %.1f ms\n%s", r.Half, r.Memories, r.Engine, r.Millis, r.Report.Table())
				if !slices.Contains(dreamTuned, r.Half) {
					// A held-back folder's violations are counted, never
					// named: naming them would be reading its misses.
					if n := len(r.Report.Violations); n > 0 {
						fmt.Fprintf(b.stdout, "  %d violations (held back: not listed)\n", n)
					}
				} else {
					for _, v := range r.Report.Violations {
						fmt.Fprintf(b.stdout, "  VIOLATION %s\n", v)
					}
				}
				if verbose && slices.Contains(dreamTuned, r.Half) {
					for _, m := range r.Report.Missed {
						fmt.Fprintf(b.stdout, "  missed %s\n", m)
					}
					for _, x := range r.Report.Extra {
						fmt.Fprintf(b.stdout, "  extra  %s\n", x)
					}
				}
				fmt.Fprintln(b.stdout)
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&set, "set", "all", strings.Join(dreamHalves, ", ")+", "+strings.Join(mergeSets, ", ")+", combined (all halves in one folder) or all")
	cmd.Flags().StringVar(&dir, "dir", dreamDir, "the labelled set's folder")
	cmd.Flags().StringVar(&merges, "merges", mergesDir, "the labelled merge folders")
	cmd.Flags().BoolVar(&train, "train", false, "train the sameness model on the learning folders and write "+samenessFile)
	cmd.Flags().BoolVar(&check, "check", false, "like --train, but only report whether "+samenessFile+" is up to date")
	cmd.Flags().BoolVar(&cv, "cv", false, "leave each learning folder out in turn: train on the others, score its merges")
	cmd.Flags().BoolVar(&verbose, "verbose", false, "list the missed and extra operations of the halves tuned on ("+strings.Join(dreamTuned, ", ")+")")
	cmd.Flags().StringVar(&engine, "engine", "heuristic", "heuristic, or a model engine (anthropic, openai, claude: needs a key)")
	return cmd
}

// dreamHalf plans one labelled folder in a throwaway home and scores it.
func (b *bench) dreamHalf(dirs []string, half, engine string) (dreamHalf, error) {
	w, e, done, err := openDreamFolder(dirs)
	if err != nil {
		return dreamHalf{}, err
	}
	defer done()
	start := time.Now()
	rep, err := w.Dream(b.ctx, workspace.DreamOptions{Engine: engine, Now: e.Now})
	took := time.Since(start)
	if err != nil {
		return dreamHalf{}, err
	}
	in, err := w.DreamInput(b.ctx, e.Now)
	if err != nil {
		return dreamHalf{}, err
	}
	if len(rep.Problems) > 0 {
		return dreamHalf{}, fmt.Errorf("%s: %s", half, strings.Join(rep.Problems, "; "))
	}
	return dreamHalf{Half: half, Memories: rep.Memories, Engine: rep.Engine, Report: consolidate.Score(in, rep.Plan, e),
		Millis: float64(took.Microseconds()) / 1000}, nil
}

// openDreamFolder copies labelled folders (put together, when several)
// into a throwaway agent home as one project's memory folder, with their
// usage evidence, and opens that project as 'memdir dream' would. done
// removes the home.
func openDreamFolder(dirs []string) (w *workspace.Workspace, e consolidate.Expected, done func(), err error) {
	for _, dir := range dirs {
		var one consolidate.Expected
		raw, err := os.ReadFile(filepath.Join(dir, "expected.json"))
		if err != nil {
			return nil, e, nil, hint.With(err, "run from the module root, or give --dir")
		}
		if err := json.Unmarshal(raw, &one); err != nil {
			return nil, e, nil, fmt.Errorf("%s: %w", filepath.Join(dir, "expected.json"), err)
		}
		e.Now = one.Now
		e.Ops = append(e.Ops, one.Ops...)
		e.Untouched = append(e.Untouched, one.Untouched...)
		e.Index.Lines += one.Index.Lines
		e.Index.Chars += one.Index.Chars
		e.Index.LongLines = append(e.Index.LongLines, one.Index.LongLines...)
	}
	root, err := os.MkdirTemp("", "memdir-bench-dream-")
	if err != nil {
		return nil, e, nil, err
	}
	done = func() { os.RemoveAll(root) }
	fail := func(err error) (*workspace.Workspace, consolidate.Expected, func(), error) {
		done()
		return nil, e, nil, err
	}
	home, proj := filepath.Join(root, "home"), filepath.Join(root, "proj")
	mem := filepath.Join(home, "projects", paths.Sanitize(proj), "memory")
	if err := os.MkdirAll(mem, 0o700); err != nil {
		return fail(err)
	}
	if err := os.MkdirAll(proj, 0o700); err != nil {
		return fail(err)
	}
	var files []string
	for _, dir := range dirs {
		more, _ := filepath.Glob(filepath.Join(dir, "memories", "*.md"))
		files = append(files, more...)
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			return fail(err)
		}
		dst := filepath.Join(mem, filepath.Base(f))
		if err := os.WriteFile(dst, b, 0o600); err != nil {
			return fail(err)
		}
		if err := os.Chtimes(dst, dreamFallback, dreamFallback); err != nil {
			return fail(err)
		}
	}
	if err := seedUsage(dirs, mem); err != nil {
		return fail(err)
	}
	env := workspace.Env{Getenv: isolatedEnv(root), Cwd: proj, HomeFlag: home}
	w, err = workspace.Open(env, false)
	if err != nil {
		return fail(err)
	}
	return w, e, done, nil
}

// seedUsage writes the labelled halves' usage evidence where memdir keeps
// it (the store writes no such file unasked, so the bench does, once, into
// its throwaway folder); halves put together keep the earliest since.
func seedUsage(dirs []string, mem string) error {
	f := usage.File{Version: usage.Version, Memories: map[string]usage.Record{}}
	for _, dir := range dirs {
		file := filepath.Join(dir, "usage.json")
		b, err := os.ReadFile(file)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return err
		}
		var one usage.File
		if err := json.Unmarshal(b, &one); err != nil {
			return fmt.Errorf("%s: %w", file, err)
		}
		if f.Since.IsZero() || one.Since.Before(f.Since) {
			f.Since = one.Since
		}
		maps.Copy(f.Memories, one.Memories)
	}
	if len(f.Memories) == 0 {
		return nil
	}
	out, err := usage.Format(f)
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(mem, memdir.UsageFile), out, 0o600)
}
