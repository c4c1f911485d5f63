package patterns

// weights are how a line's features are weighed in its vector, which
// finds the lines worth comparing (they share one of its strongest
// features) and gives the likeness model the two lines' cosine. They were
// chosen by a sweep on the first two tuning sets, before the likeness
// model; the model is trained on vectors weighed so, and changing them
// means training it again (`go run ./cmd/memdir-bench patterns --train`).
type weights struct {
	// concept weighs a concept of the lexicon a line names; area the field
	// the concept belongs to (time and dates, testing, caching…).
	concept float64
	area    float64
	// singleton scales, in a line's length, the features no other diary
	// has: they cannot tie two tasks together.
	singleton float64
	// rare scales a feature found in fewer diaries than a pattern needs.
	rare float64
	// topK is how many of its strongest features a line is compared by;
	// the rest count, at drop, in its length only.
	topK int
	drop float64
}

var vecWeights = weights{concept: 0.5, area: 0, singleton: 0.5, rare: 0.5, topK: 8, drop: 0.5}
