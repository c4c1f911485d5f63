// Package archtest holds no code: its tests check memdir's import rules
// (the layers and rules of AGENTS.md, "Layers and import rules") against
// the import graph 'go list' reports for linux, darwin and windows, so a
// forbidden import fails 'go test ./...' and CI.
//
// The rules are data in rules_test.go; a change to them is a change to
// AGENTS.md too (TestAgentsMDMatchesLayers holds the two together).
package archtest
