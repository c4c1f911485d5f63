package main

import (
	"embed"
	"strings"
)

// helpFiles holds the long help of commands whose explanation is longer
// than their code: text, kept out of the Go files.
//
//go:embed help/*.txt
var helpFiles embed.FS

// longHelp is the long help of command name.
func longHelp(name string) string {
	b, _ := helpFiles.ReadFile("help/" + name + ".txt")
	return strings.TrimRight(string(b), "\n")
}
