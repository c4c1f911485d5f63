//go:build race

package extract

// raceBuild: the tests run under the race detector, some ten times
// slower; the exhaustive differential tests take a sample.
const raceBuild = true
