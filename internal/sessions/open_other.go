//go:build !unix

package sessions

const openNonBlock = 0
