package mcpserver

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestSave_RefusedBeforeTheFolderIsMade: an invalid memory_save (bad type,
// no description) makes no memory folder, not even for the project it
// names.
func TestSave_RefusedBeforeTheFolderIsMade(t *testing.T) {
	env := testEnv(t)
	cs := connect(t, newTest(t, env).Server)
	other := t.TempDir()
	for _, args := range []map[string]any{
		{"type": "bogus", "name": "x", "description": "d", "body": "b"},
		{"type": "user", "name": "x", "description": " ", "body": "b"},
		{"type": "bogus", "name": "x", "description": "d", "body": "b", "project": other},
	} {
		r, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "memory_save", Arguments: args})
		if err != nil || !r.IsError {
			t.Fatalf("%v: accepted (%v)", args, err)
		}
	}
	home := env.Getenv("MEMDIR_HOME")
	if _, err := os.Stat(filepath.Join(home, "projects")); !os.IsNotExist(err) {
		entries, _ := os.ReadDir(filepath.Join(home, "projects"))
		t.Errorf("refused saves made memory folders: %v", entries)
	}
}
