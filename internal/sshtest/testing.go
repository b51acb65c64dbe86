// Test helpers: dialling for the length of one test.

package sshtest

import "testing"

// New dials addr with a fresh key (see [NewKey] and [Dial]), fails tb at
// once if that does not work, and closes the client when tb's cleanup runs.
func New(tb testing.TB, addr string, o Options) *Client {
	tb.Helper()
	key, err := NewKey()
	if err != nil {
		tb.Fatal(err)
	}
	c, err := Dial(addr, key, o)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() {
		if err := c.Close(); err != nil {
			tb.Error(err)
		}
	})
	return c
}
