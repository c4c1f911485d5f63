package patterns

import (
	"container/heap"
	"slices"
	"strings"
)

// floor is the similarity under which two lines are not worth linking at
// all: it keeps the graph sparse.
const floor = 0.05

// cluster groups lines by average linkage: it merges the two groups whose
// lines are, on average, the most similar, while that average is at least
// threshold. The result is every group's line indexes, in line order,
// groups ordered by their first line.
func cluster(lines []Line, threshold float64) [][]int {
	n := len(lines)
	// Candidate pairs through an inverted index: only lines that share a
	// feature can be similar.
	post := map[string][]int{}
	for i, l := range lines {
		for k := range l.vec {
			post[k] = append(post[k], i)
		}
	}
	link := make([]map[int]float64, n) // group → neighbour group → sum of similarities
	for i := range link {
		link[i] = map[int]float64{}
	}
	seen := make([]int, n)
	for i := range seen {
		seen[i] = -1
	}
	for i, l := range lines {
		for k := range l.vec {
			for _, j := range post[k] {
				if j <= i || seen[j] == i {
					continue
				}
				seen[j] = i
				if s := cosine(l.vec, lines[j].vec); s >= floor && evidence(l.vec, lines[j].vec) >= 2 {
					link[i][j] = s
					link[j][i] = s
				}
			}
		}
	}
	size := make([]int, n)
	members := make([][]int, n)
	alive := make([]bool, n)
	version := make([]int, n)
	h := &pairHeap{}
	for i := range n {
		size[i], members[i], alive[i] = 1, []int{i}, true
		for j, s := range link[i] {
			if j > i && s >= threshold {
				heap.Push(h, pair{s, i, j, 0, 0})
			}
		}
	}
	for h.Len() > 0 {
		p := heap.Pop(h).(pair)
		if !alive[p.a] || !alive[p.b] || version[p.a] != p.va || version[p.b] != p.vb {
			continue
		}
		a, b := p.a, p.b
		members[a] = append(members[a], members[b]...)
		size[a] += size[b]
		alive[b] = false
		members[b] = nil
		for c, s := range link[b] {
			if c == a {
				continue
			}
			link[a][c] += s
			link[c][a] = link[a][c]
			delete(link[c], b)
		}
		delete(link[a], b)
		link[b] = nil
		version[a]++
		for c, s := range link[a] {
			if !alive[c] {
				continue
			}
			if avg := s / float64(size[a]*size[c]); avg >= threshold {
				x, y := a, c
				if y < x {
					x, y = y, x
				}
				heap.Push(h, pair{avg, x, y, version[x], version[y]})
			}
		}
	}
	var out [][]int
	for i := range n {
		if alive[i] {
			m := members[i]
			slices.Sort(m)
			out = append(out, m)
		}
	}
	slices.SortFunc(out, func(a, b []int) int { return a[0] - b[0] })
	return out
}

// pair is two groups and their average similarity, as of their versions.
type pair struct {
	sim    float64
	a, b   int
	va, vb int
}

type pairHeap []pair

func (h pairHeap) Len() int { return len(h) }
func (h pairHeap) Less(i, j int) bool {
	if h[i].sim != h[j].sim {
		return h[i].sim > h[j].sim
	}
	if h[i].a != h[j].a {
		return h[i].a < h[j].a
	}
	return h[i].b < h[j].b
}
func (h pairHeap) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *pairHeap) Push(x any)   { *h = append(*h, x.(pair)) }
func (h *pairHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

// evidence counts the words and signatures two lines share (word pairs
// aside): one shared word is a coincidence of vocabulary more often than
// a lesson.
func evidence(a, b map[string]float64) int {
	n := 0
	for k := range a {
		if _, ok := b[k]; ok && !strings.HasPrefix(k, "bi:") {
			n++
		}
	}
	return n
}
