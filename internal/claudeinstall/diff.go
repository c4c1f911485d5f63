package claudeinstall

import "strings"

// Diff returns a line diff of a and b: unchanged lines indented by two
// spaces, removed ones prefixed "- ", added ones "+ ", with at most ctx
// unchanged lines kept around each change ("…" marks a gap). "" when equal.
func Diff(a, b string, ctx int) string {
	if a == b {
		return ""
	}
	x, y := strings.Split(a, "\n"), strings.Split(b, "\n")
	// Longest common subsequence table, from the ends.
	lcs := make([][]int, len(x)+1)
	for i := range lcs {
		lcs[i] = make([]int, len(y)+1)
	}
	for i := len(x) - 1; i >= 0; i-- {
		for j := len(y) - 1; j >= 0; j-- {
			if x[i] == y[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	type line struct {
		op   byte
		text string
	}
	var lines []line
	i, j := 0, 0
	for i < len(x) || j < len(y) {
		switch {
		case i < len(x) && j < len(y) && x[i] == y[j]:
			lines = append(lines, line{' ', x[i]})
			i, j = i+1, j+1
		case i < len(x) && (j == len(y) || lcs[i+1][j] >= lcs[i][j+1]):
			lines = append(lines, line{'-', x[i]}) // removals first, as diff prints them
			i++
		default:
			lines = append(lines, line{'+', y[j]})
			j++
		}
	}
	keep := make([]bool, len(lines))
	for k, l := range lines {
		if l.op != ' ' {
			for m := max(0, k-ctx); m <= min(len(lines)-1, k+ctx); m++ {
				keep[m] = true
			}
		}
	}
	var out strings.Builder
	gap := false
	for k, l := range lines {
		if !keep[k] {
			gap = true
			continue
		}
		if gap {
			out.WriteString("  …\n")
			gap = false
		}
		out.WriteByte(l.op)
		out.WriteString(" " + l.text + "\n")
	}
	return out.String()
}
