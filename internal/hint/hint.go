// Package hint attaches to an error the next command a person should run.
// Every layer may return a hinted error; only cmd/memdir prints it, as
// "memdir: hint: …" after the error.
package hint

import (
	"errors"
	"fmt"
)

// Error is an error with the next step to take.
type Error struct {
	Err  error
	Hint string
}

func (e *Error) Error() string { return e.Err.Error() }
func (e *Error) Unwrap() error { return e.Err }

// With returns err with a hint, or nil for a nil err.
func With(err error, format string, args ...any) error {
	if err == nil {
		return nil
	}
	return &Error{Err: err, Hint: fmt.Sprintf(format, args...)}
}

// Of returns the hint attached to err (the outermost one), or "".
func Of(err error) string {
	var he *Error
	if errors.As(err, &he) {
		return he.Hint
	}
	return ""
}
