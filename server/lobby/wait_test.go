package lobby

import (
	"testing"

	"github.com/grotto-game/grotto/internal/await"
)

// recv receives from ch; the test fails if nothing comes within waitLong.
func recv[T any](t testing.TB, what string, ch <-chan T) T {
	t.Helper()
	return await.Recv(t, waitLong, what, ch)
}

// within runs f, which blocks until something happens (a WaitGroup's
// Wait), and fails the test if it has not returned within waitLong.
func within(t testing.TB, what string, f func()) {
	t.Helper()
	await.Return(t, waitLong, what, f)
}

// playing is the activity of a session with a game in play.
var playing = Activity{Doing: Playing}
