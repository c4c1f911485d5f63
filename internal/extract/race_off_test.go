//go:build !race

package extract

// raceBuild: see race_on_test.go.
const raceBuild = false
