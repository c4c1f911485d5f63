package snapshot

import (
	"context"
	"encoding/json"
	"os"
	"strings"

	"github.com/memdir/memdir/internal/memdir"
	"github.com/memdir/memdir/internal/recall"
)

// Embedder turns texts into vectors (see internal/llm).
type Embedder interface {
	Embed(ctx context.Context, texts []string) ([][]float32, error)
}

type vectorCache struct {
	Model   string                 `json:"model"`
	Entries map[string]vectorEntry `json:"entries"`
}

type vectorEntry struct {
	Size  int64     `json:"size"`
	Mtime int64     `json:"mtime"`
	Vec   []float32 `json:"vec"`
}

// Vectors returns an embedding per memory of snap, from the folder's cache
// (.memdir-cache/vectors-<model>.json) where the file is unchanged, and
// from emb for the rest, which then join the cache.
func Vectors(ctx context.Context, s *memdir.Store, snap *recall.Snapshot, emb Embedder, model string) (map[string][]float32, error) {
	name := memdir.CacheDir + "/vectors-" + strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '.' {
			return r
		}
		return '_'
	}, model) + ".json"
	cache := vectorCache{Model: model, Entries: map[string]vectorEntry{}}
	if b, err := os.ReadFile(s.Path(name)); err == nil {
		json.Unmarshal(b, &cache)
		if cache.Entries == nil || cache.Model != model {
			cache = vectorCache{Model: model, Entries: map[string]vectorEntry{}}
		}
	}
	out := map[string][]float32{}
	index := map[string]int{}
	var todo []string
	var texts []string
	for i := range snap.Len() {
		file := snap.File(i)
		index[file] = i
		size, mtime := snap.Stat(i)
		if e, ok := cache.Entries[file]; ok && e.Size == size && e.Mtime == mtime {
			out[file] = e.Vec
			continue
		}
		m, err := s.Get(file)
		if err != nil {
			continue
		}
		todo = append(todo, file)
		texts = append(texts, m.Title()+": "+m.Summary()+"\n"+m.Body)
	}
	for start := 0; start < len(todo); start += 64 {
		end := min(start+64, len(todo))
		vecs, err := emb.Embed(ctx, texts[start:end])
		if err != nil {
			return nil, err
		}
		for j, v := range vecs {
			file := todo[start+j]
			out[file] = v
			size, mtime := snap.Stat(index[file])
			cache.Entries[file] = vectorEntry{Size: size, Mtime: mtime, Vec: v}
		}
	}
	for f := range cache.Entries {
		if _, ok := out[f]; !ok {
			delete(cache.Entries, f)
		}
	}
	if len(todo) > 0 {
		if b, err := json.Marshal(cache); err == nil {
			_ = s.WriteCache(name, b)
		}
	}
	return out, nil
}
