//go:build !unix

package safefile

const (
	nonBlock = 0
	noFollow = 0
)
