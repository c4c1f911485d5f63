package consolidate

import "errors"

// ParsePlan TEMPORARY stub, replaced by helper llm's llm.go.
func ParsePlan(text string) (Plan, error) { return Plan{}, errors.New("not yet") }
