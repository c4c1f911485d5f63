//go:build !unix

package lockfile

// alive cannot tell here: every holder is taken to be alive.
func alive(int) bool { return true }
