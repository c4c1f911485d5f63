package patterns

// The engine's weights, chosen by sweeping them on the two tuning halves
// (testdata/tune and testdata/tune2) only; docs/benchmarks.md has the
// sweep and the held-back halves' scores.
var (
	// wConcept weighs a concept of the lexicon a line names; wArea the
	// field the concept belongs to (time and dates, testing, caching…).
	wConcept = 0.5
	wArea    = 0.0
	// singletonWeight scales, in a line's length, the features no other
	// diary has.
	singletonWeight = 0.5
	// rareWeight scales a feature found in fewer diaries than rareBelow.
	rareWeight = 0.5
	// topK is how many of its strongest features a line is compared by;
	// the rest count, at dropWeight, in its length only.
	topK       = 8
	dropWeight = 0.5
)
