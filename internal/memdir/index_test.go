package memdir

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

const handIndex = `# Memory

Notes I wrote by hand stay put.
- [Prefer tabs](prefer-tabs.md) — tabs, not spaces
* [Old](./old.md) — an old entry
- not an entry: [text](https://example.com)
`

func TestParseIndex(t *testing.T) {
	t.Parallel()
	ix := ParseIndex([]byte(handIndex))
	if got := string(ix.Bytes()); got != handIndex {
		t.Errorf("Bytes() did not reproduce the input:\n%s", cmp.Diff(handIndex, got))
	}
	if got, want := ix.Files(), []string{"prefer-tabs.md", "old.md"}; !cmp.Equal(got, want) {
		t.Errorf("Files()=%v, want %v", got, want)
	}
}

func TestIndex_Upsert(t *testing.T) {
	t.Parallel()
	t.Run("Replace", func(t *testing.T) {
		ix := ParseIndex([]byte(handIndex))
		if !ix.Upsert("prefer-tabs.md", "- [Prefer tabs](prefer-tabs.md) — always tabs") {
			t.Fatal("Upsert reported no change")
		}
		want := strings.Replace(handIndex, "— tabs, not spaces", "— always tabs", 1)
		if got := string(ix.Bytes()); got != want {
			t.Errorf("Upsert touched other lines:\n%s", cmp.Diff(want, got))
		}
		if ix.Upsert("prefer-tabs.md", "- [Prefer tabs](prefer-tabs.md) — always tabs") {
			t.Error("a second identical Upsert reported a change")
		}
	})
	t.Run("Append", func(t *testing.T) {
		ix := ParseIndex([]byte(handIndex))
		ix.Upsert("new.md", "- [New](new.md) — hook")
		want := handIndex + "- [New](new.md) — hook\n"
		if got := string(ix.Bytes()); got != want {
			t.Errorf("append:\n%s", cmp.Diff(want, got))
		}
	})
	t.Run("Empty", func(t *testing.T) {
		var ix Index
		ix.Upsert("a.md", "- [A](a.md)")
		if got, want := string(ix.Bytes()), "- [A](a.md)\n"; got != want {
			t.Errorf("Bytes()=%q, want %q", got, want)
		}
	})
	t.Run("DropsDuplicates", func(t *testing.T) {
		ix := ParseIndex([]byte("- [A](a.md) — 1\n- [B](b.md)\n- [A](a.md) — 2\n"))
		ix.Upsert("a.md", "- [A](a.md) — 3")
		if got, want := string(ix.Bytes()), "- [A](a.md) — 3\n- [B](b.md)\n"; got != want {
			t.Errorf("Bytes()=%q, want %q", got, want)
		}
	})
	t.Run("Remove", func(t *testing.T) {
		ix := ParseIndex([]byte(handIndex))
		if !ix.Remove("old.md") || ix.Remove("old.md") {
			t.Fatal("Remove: want true then false")
		}
		want := strings.Replace(handIndex, "* [Old](./old.md) — an old entry\n", "", 1)
		if got := string(ix.Bytes()); got != want {
			t.Errorf("Remove:\n%s", cmp.Diff(want, got))
		}
	})
}

func TestEntryLine(t *testing.T) {
	t.Parallel()
	m := Memory{File: "x.md", Name: "Use [brackets]\nsafely", Description: "one\nline"}
	if got, want := EntryLine(m), "- [Use (brackets) safely](x.md) — one line"; got != want {
		t.Errorf("EntryLine()=%q, want %q", got, want)
	}
	m.Description = strings.Repeat("long words ", 40)
	got := EntryLine(m)
	if n := jsLen(got); n > MaxEntryChars {
		t.Errorf("EntryLine is %d characters, want ≤ %d", n, MaxEntryChars)
	}
	if !strings.HasSuffix(got, "…") || entryFile(got) != "x.md" {
		t.Errorf("EntryLine()=%q: want a cut hook ending in … that still parses as an entry", got)
	}
	if got := EntryLine(Memory{File: "y.md"}); got != "- [y](y.md)" {
		t.Errorf("EntryLine(no name, no description)=%q", got)
	}
}

func entries(n, width int) string {
	var b strings.Builder
	for i := range n {
		line := fmt.Sprintf("- [M%d](m%d.md) — ", i, i)
		b.WriteString(line + strings.Repeat("x", max(0, width-jsLen(line))) + "\n")
	}
	return b.String()
}

func TestLoad(t *testing.T) {
	t.Parallel()
	t.Run("UnderCaps", func(t *testing.T) {
		l := Load(entries(10, 40))
		if l.Truncated || l.Warning != "" || l.Lines != 10 {
			t.Errorf("Load()=%+v, want untouched", l)
		}
	})
	t.Run("LineCap", func(t *testing.T) {
		l := Load(entries(300, 40))
		if !l.Truncated || l.LinesDropped != 100 || l.EntriesDropped != 100 {
			t.Fatalf("Load(300 lines): truncated=%v dropped=%d entries=%d, want true, 100, 100", l.Truncated, l.LinesDropped, l.EntriesDropped)
		}
		if !strings.Contains(l.Warning, "300 lines (limit: 200)") || !strings.Contains(l.Warning, "starting at line 201") ||
			!strings.Contains(l.Warning, "100 index entries left out") {
			t.Errorf("warning does not name the line cap: %s", l.Warning)
		}
		body, _, _ := strings.Cut(l.Text, "\n\n> WARNING")
		if n := strings.Count(body, "\n") + 1; n != 200 {
			t.Errorf("kept %d lines, want 200", n)
		}
	})
	t.Run("CharCap", func(t *testing.T) {
		l := Load(entries(60, 500)) // 60 lines of 500 characters: 30,060
		if !l.Truncated || !strings.Contains(l.Warning, "index entries are too long") || !strings.Contains(l.Warning, "limit: 24.4KB") {
			t.Fatalf("Load(60 long lines): %+v", l)
		}
		body, _, _ := strings.Cut(l.Text, "\n\n> WARNING")
		if jsLen(body) > MaxIndexChars || !strings.HasSuffix(body, "x") {
			t.Errorf("kept %d characters ending %q; want ≤ %d cut at a line end", jsLen(body), body[len(body)-5:], MaxIndexChars)
		}
		if l.LinesDropped != 11 || l.EntriesDropped != 11 {
			t.Errorf("dropped %d lines, %d entries; want 11, 11", l.LinesDropped, l.EntriesDropped)
		}
	})
	t.Run("BothCaps", func(t *testing.T) {
		l := Load(entries(300, 200))
		if !strings.Contains(l.Warning, "300 lines and ") {
			t.Errorf("warning=%s, want both caps named", l.Warning)
		}
	})
	t.Run("HardCut", func(t *testing.T) {
		l := Load("- [A](a.md) — " + strings.Repeat("é", 30000))
		if !strings.Contains(l.Warning, "everything after the first 25000 characters of line 1") {
			t.Errorf("warning=%s", l.Warning)
		}
	})
	t.Run("UTF16", func(t *testing.T) {
		// 8,400 emoji are 16,800 UTF-16 units but 33,600 bytes: under the cap.
		l := Load("- [A](a.md) — " + strings.Repeat("😀", 8400))
		if l.Truncated {
			t.Errorf("cut at %d characters; caps count UTF-16 units, not bytes", l.Chars)
		}
	})
}

func TestIndexUsage_Warning(t *testing.T) {
	t.Parallel()
	if w := IndexUsage(entries(159, 40)).Warning(); w != "" {
		t.Errorf("159 lines warned: %s", w)
	}
	if w := IndexUsage(entries(160, 40)).Warning(); !strings.Contains(w, "160 of 200 lines") {
		t.Errorf("160 lines: warning %q", w)
	}
	if w := IndexUsage(entries(45, 460)).Warning(); !strings.Contains(w, "size cap") {
		t.Errorf("20,700 characters: warning %q", w)
	}
}

// FuzzParseIndex checks that any bytes parse, round-trip exactly, and that
// after an Upsert the file is listed exactly once.
func FuzzParseIndex(f *testing.F) {
	seeds, _ := filepath.Glob(filepath.Join("testdata", "index", "*.md"))
	for _, p := range seeds {
		b, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add([]byte(handIndex))
	f.Add([]byte(entries(5, 30)))
	f.Add([]byte("\r\n- [x](x.md)\r\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		ix := ParseIndex(b)
		if got := ix.Bytes(); string(got) != string(b) {
			t.Fatalf("round trip: %q → %q", b, got)
		}
		line := EntryLine(Memory{File: "fz.md", Name: "F", Description: string(b)})
		ix.Upsert("fz.md", line)
		again := ParseIndex(ix.Bytes())
		n := 0
		for _, l := range again.Lines {
			if l.File == "fz.md" {
				n++
				if l.Text != line {
					t.Fatalf("entry %q, want %q", l.Text, line)
				}
			}
		}
		if n != 1 {
			t.Fatalf("fz.md listed %d times after Upsert", n)
		}
		_ = Load(string(b))
	})
}

func TestEntryFile(t *testing.T) {
	t.Parallel()
	tests := map[string]string{
		"- [A](a.md) — hook":       "a.md",
		"* [A](./a.md)":            "a.md",
		"  + [A]( a.md ) x":        "a.md",
		"-\t[A](a.md)":             "a.md",
		"- [](a.md)":               "a.md",
		"- [A](a.md\r":             "",
		"- [A](https://x.com/a.md": "",
		"- [A](a b.md)":            "",
		"- [A](.md)":               "",
		"- [A] (a.md)":             "",
		"-[A](a.md)":               "",
		"- text [A](a.md)":         "",
		"# [A](a.md)":              "",
		"- [A](a.txt)":             "",
		"- [A](dir/a.md)":          "dir/a.md",
		// Brackets in the link text, as Claude Code's [[name]] links.
		"- [Use [[name]] links](wiki-links.md) — x": "wiki-links.md",
		"- [a [b] c](x.md)":                         "x.md",
		"- [unclosed [x](y.md)":                     "",
		// Targets with spaces: angle brackets or %20.
		"- [T](<team contacts.md>) — who": "team contacts.md",
		"- [T](team%20contacts.md)":       "team contacts.md",
		"- [T](<team contacts.md) — who":  "",
	}
	for in, want := range tests {
		if got := entryFile(in); got != want {
			t.Errorf("entryFile(%q)=%q, want %q", in, got, want)
		}
	}
}
