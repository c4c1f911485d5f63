// Package claims finds what a memory names that the project can check: file
// paths, symbols, command-line flags, commands, packages and URLs. A memory
// naming one is a claim that it existed when the memory was written. It is
// pure: no I/O.
package claims
