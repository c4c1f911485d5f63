package memdir_test

import (
	"context"
	"strings"
	"testing"

	"github.com/memdir/memdir/internal/memdir"
)

// TestReview1201b_ForceUndoIndexOneLinePerMemory: the batch rewrites
// m01.md's index line (its description); m01.md is saved again after the
// batch with another description. A forced undo puts m01.md back as it was
// before the batch (its later version kept in .forgotten), so MEMORY.md
// should hold one line for m01.md, the one of before the batch. undoIndex
// keeps the later line ("written since") and puts the old one back too:
// two lines for one file, one of them describing a version that is no
// longer live.
func TestReview1201b_ForceUndoIndexOneLinePerMemory(t *testing.T) {
	ctx := context.Background()
	st := seedFolder(t, t.TempDir(), 4)
	if _, err := st.Apply(ctx, testBatch()); err != nil {
		t.Fatal(err)
	}
	if _, err := st.Save(ctx, memdir.Memory{File: "m01.md", Name: "Memory 01", Description: "fact one, revised by hand after the batch", Type: memdir.TypeProject, Body: "Fact 1, revised.\n"}, memdir.SaveOptions{}); err != nil {
		t.Fatal(err)
	}
	info, err := st.Undo(ctx, "", true)
	if err != nil {
		t.Fatal(err)
	}
	files := folderFiles(t, st.Dir())
	index := files[memdir.IndexFile]
	if n := strings.Count(index, "(m01.md)"); n != 1 {
		t.Errorf("MEMORY.md has %d lines for m01.md after a forced undo (IndexKept=%d, Kept=%v), want 1:\n%s", n, info.IndexKept, info.Kept, index)
	}
	if strings.Contains(index, "revised by hand") && !strings.Contains(files["m01.md"], "revised by hand") {
		t.Errorf("MEMORY.md describes m01.md by a version that is no longer live (kept in %v)", info.Kept)
	}
}

// TestReview1201b_ForceUndoNoLineForRemovedMemory: the batch creates
// new-fact.md; it is saved again after the batch. A forced undo removes
// new-fact.md (kept as a version), but MEMORY.md keeps its later line as
// "written since": a line pointing to a file that is not there.
func TestReview1201b_ForceUndoNoLineForRemovedMemory(t *testing.T) {
	ctx := context.Background()
	st := seedFolder(t, t.TempDir(), 4)
	if _, err := st.Apply(ctx, testBatch()); err != nil {
		t.Fatal(err)
	}
	if _, err := st.Save(ctx, memdir.Memory{File: "new-fact.md", Name: "New fact", Description: "a memory the batch created, edited since", Type: memdir.TypeProject, Body: "New, edited.\n"}, memdir.SaveOptions{}); err != nil {
		t.Fatal(err)
	}
	info, err := st.Undo(ctx, "", true)
	if err != nil {
		t.Fatal(err)
	}
	files := folderFiles(t, st.Dir())
	if _, live := files["new-fact.md"]; !live && strings.Contains(files[memdir.IndexFile], "(new-fact.md)") {
		t.Errorf("MEMORY.md keeps a line for new-fact.md, which the undo removed (Kept=%v, IndexKept=%d):\n%s", info.Kept, info.IndexKept, files[memdir.IndexFile])
	}
}
