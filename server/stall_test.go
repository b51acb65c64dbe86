package server

import (
	"io"
	"testing"
	"time"

	"github.com/grotto-game/grotto/internal/await"
)

// A session's output whose client stopped reading: a write that would
// block for ever ends once the stall closes the connection (here, the
// pipe).
func TestAWriteToATerminalThatTakesNothingEndsTheSession(t *testing.T) {
	r, w := io.Pipe() // nobody reads r: the client's full window
	closed := make(chan struct{})
	f := &frameWriter{w: w, after: 50 * time.Millisecond, stall: func() {
		r.CloseWithError(io.ErrClosedPipe) // what closing the connection does to the blocked write
		close(closed)
	}}
	wrote := make(chan error, 1)
	go func() { _, err := f.Write([]byte("a frame")); wrote <- err }()
	await.Recv(t, waitLong, "the stall", closed)
	if err := await.Recv(t, waitLong, "the blocked write to end", wrote); err == nil {
		t.Error("the stalled write reported success")
	}

}
