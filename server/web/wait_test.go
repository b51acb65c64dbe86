package web

import (
	"testing"

	"github.com/grotto-game/grotto/internal/await"
)

// recv receives from ch; the test fails if nothing comes within waitLong.
func recv[T any](t testing.TB, what string, ch <-chan T) T {
	t.Helper()
	return await.Recv(t, waitLong, what, ch)
}
