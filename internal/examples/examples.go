// Package examples holds the realistic memories that 'memdir quickstart'
// saves into its throwaway folder, bundled in the binary.
package examples

import "embed"

// Memories holds one memory file per example, all four types, under memories/.
//
//go:embed memories/*.md
var Memories embed.FS
