package cluster_test

import (
	"testing"
	"time"

	"github.com/grotto-game/grotto/internal/await"
)

// recv receives from ch; the test fails if nothing comes within a minute
// (waitFor's deadline).
func recv[T any](t testing.TB, what string, ch <-chan T) T {
	t.Helper()
	return await.Recv(t, time.Minute, what, ch)
}
