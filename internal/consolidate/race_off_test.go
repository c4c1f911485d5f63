//go:build !race

package consolidate_test

// raceBuild: see race_on_test.go.
const raceBuild = false
