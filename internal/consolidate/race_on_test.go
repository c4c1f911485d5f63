//go:build race

package consolidate_test

// raceBuild reports a build with the race detector, which runs the planner
// several times slower: the test that plans every labelled half as one
// folder (quadratic in its size) plans a sample of them instead.
const raceBuild = true
