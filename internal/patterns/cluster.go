package patterns

import (
	"container/heap"
	"maps"
	"slices"
	"strings"

	"github.com/memdir/memdir/internal/diary"
	"github.com/memdir/memdir/internal/textclf"
)

// floor is the likeness under which two lines are not worth linking at
// all: it keeps the graph sparse.
const floor = 0.05

// cluster groups lines by average linkage: it merges the two groups whose
// lines are, on average, the most similar, while that average is at least
// threshold. The result is every group's line indexes, in line order,
// groups ordered by their first line.
func cluster(lines []Line, c corpus, m *textclf.Model, threshold float64) [][]int {
	g := graph(lines, c, m)
	task := make([]int, len(lines))
	ids := map[string]int{}
	for i, l := range lines {
		if _, ok := ids[l.Diary]; !ok {
			ids[l.Diary] = len(ids)
		}
		task[i] = ids[l.Diary]
	}
	return refine(g, task, agglomerate(g, task, threshold), threshold)
}

// graph links every two lines that are similar at all: line → line →
// similarity. Only lines that share one of the features they are
// compared by are scored (an inverted index finds them); the model gives
// the others too little to link. The similarity is m's likeness of the
// two.
func graph(lines []Line, c corpus, m *textclf.Model) []map[int]float64 {
	n := len(lines)
	// Candidate pairs through an inverted index on the features lines are
	// compared by.
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
	sc := newScorer(m, c)
	for i, l := range lines {
		for k := range l.vec {
			for _, j := range post[k] {
				if j <= i || seen[j] == i || lines[j].Diary == l.Diary {
					continue // two lines of one task say nothing of recurrence
				}
				seen[j] = i
				if s := probability(sc.z(c, &lines[i], &lines[j])); s >= floor {
					link[i][j], link[j][i] = s, s
				}
			}
		}
	}
	return link
}

// agglomerate merges groups by average linkage over the graph g. Two
// lines of one task (task[i], the diary of line i) are never linked, and
// they count neither for nor against: the average is over the pairs of
// lines of two tasks.
func agglomerate(g []map[int]float64, task []int, threshold float64) [][]int {
	n := len(g)
	link := make([]map[int]float64, n)
	for i := range g {
		link[i] = make(map[int]float64, len(g[i]))
		for j, s := range g[i] {
			link[i][j] = s
		}
	}
	size := make([]int, n)
	members := make([][]int, n)
	alive := make([]bool, n)
	version := make([]int, n)
	tasks := make([]map[int]int, n) // group → its tasks → lines of each
	pairs := func(a, b int) int {
		p := size[a] * size[b]
		if len(tasks[a]) > len(tasks[b]) {
			a, b = b, a
		}
		for t, k := range tasks[a] {
			p -= k * tasks[b][t]
		}
		return p
	}
	h := &pairHeap{}
	for i := range n {
		size[i], members[i], alive[i] = 1, []int{i}, true
		tasks[i] = map[int]int{task[i]: 1}
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
		for t, k := range tasks[b] {
			tasks[a][t] += k
		}
		tasks[b] = nil
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
			if avg := s / float64(max(pairs(a, c), 1)); avg >= threshold {
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

// refine moves each line to the group it is, on average, most similar to
// (at least threshold), until nothing moves: agglomeration is greedy, and
// a line that joined an early, small group can belong better with a
// group formed later.
func refine(g []map[int]float64, task []int, groups [][]int, threshold float64) [][]int {
	of := make([]int, len(g))
	size := make([]int, len(groups))
	same := make([]map[int]int, len(groups)) // group → its tasks → lines of each
	for gi, m := range groups {
		same[gi] = map[int]int{}
		for _, i := range m {
			of[i] = gi
			same[gi][task[i]]++
		}
		size[gi] = len(m)
	}
	// others is how many lines of group gi are of another task than line i.
	others := func(gi, i int) int { return size[gi] - same[gi][task[i]] }
	for range 5 {
		moved := false
		for i := range g {
			// Neighbours and groups in order, the lowest group winning a
			// tie: in map order the result could differ from run to run.
			sum := map[int]float64{}
			for _, j := range slices.Sorted(maps.Keys(g[i])) {
				sum[of[j]] += g[i][j]
			}
			cur := of[i]
			curAvg := 0.0
			if n := others(cur, i); n > 0 {
				curAvg = sum[cur] / float64(n)
			}
			best, bestAvg := cur, curAvg
			for _, gj := range slices.Sorted(maps.Keys(sum)) {
				s := sum[gj]
				if gj == cur {
					continue
				}
				if avg := s / float64(max(others(gj, i), 1)); avg >= threshold && avg > bestAvg+1e-9 {
					best, bestAvg = gj, avg
				}
			}
			if best != cur {
				size[cur]--
				size[best]++
				same[cur][task[i]]--
				same[best][task[i]]++
				of[i] = best
				moved = true
			}
		}
		if !moved {
			break
		}
	}
	byGroup := map[int][]int{}
	for i, gi := range of {
		byGroup[gi] = append(byGroup[gi], i)
	}
	var out [][]int
	for _, m := range byGroup {
		out = append(out, m)
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

// joinErrors puts a group of error lines with the lesson group it recurs
// with: the same error in the tasks where the same mistake was written
// down is one pattern, though the two share no words ("relation does
// not exist" and "forgot to migrate"). They must share two tasks at
// least, and half of the error's.
func joinErrors(lines []Line, groups [][]int) [][]int {
	tasks := make([]map[string]bool, len(groups))
	isErr := make([]bool, len(groups))
	for gi, g := range groups {
		tasks[gi] = map[string]bool{}
		errs := 0
		for _, i := range g {
			tasks[gi][lines[i].Diary] = true
			if lines[i].Kind == diary.Errors {
				errs++
			}
		}
		isErr[gi] = errs*2 > len(g) && len(tasks[gi]) >= 2
	}
	into := make([]int, len(groups))
	for i := range into {
		into[i] = -1
	}
	for e := range groups {
		if !isErr[e] {
			continue
		}
		best, bestN := -1, 0
		for o := range groups {
			if o == e || isErr[o] || len(tasks[o]) < 2 {
				continue
			}
			n := 0
			for t := range tasks[e] {
				if tasks[o][t] {
					n++
				}
			}
			if n >= 2 && n*2 >= len(tasks[e]) && n > bestN {
				best, bestN = o, n
			}
		}
		into[e] = best
	}
	var out [][]int
	for gi, g := range groups {
		if into[gi] >= 0 {
			continue
		}
		m := slices.Clone(g)
		for e, to := range into {
			if to == gi {
				m = append(m, groups[e]...)
			}
		}
		slices.Sort(m)
		out = append(out, m)
	}
	return out
}
