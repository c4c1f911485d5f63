package testenv

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/memdir/memdir/internal/memdir"
)

// Store opens a store on a new temporary folder with a fixed clock.
func Store(tb testing.TB, now time.Time) *memdir.Store {
	tb.Helper()
	st, err := memdir.Open(filepath.Join(tb.TempDir(), "memory"), memdir.Options{
		Create: true, Now: func() time.Time { return now }, LockTimeout: 2 * time.Second,
	})
	if err != nil {
		tb.Fatal(err)
	}
	return st
}

// Save saves a project memory into st and returns its file.
func Save(tb testing.TB, st *memdir.Store, name, desc, body string) string {
	tb.Helper()
	res, err := st.Save(context.Background(), memdir.Memory{Name: name, Description: desc, Type: memdir.TypeProject, Body: body}, memdir.SaveOptions{})
	if err != nil {
		tb.Fatal(err)
	}
	return res.File
}
