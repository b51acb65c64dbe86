package input

import (
	"context"
	"io"

	"golang.org/x/time/rate"
)

// limitedReader hands on at most a rate of bytes: reading more waits, which
// pushes back on the client through the SSH channel's window.
type limitedReader struct {
	ctx context.Context
	r   io.Reader
	lim *rate.Limiter
}

func newLimitedReader(ctx context.Context, r io.Reader, perSec int) io.Reader {
	if perSec <= 0 {
		return r
	}
	return &limitedReader{ctx: ctx, r: r, lim: rate.NewLimiter(rate.Limit(perSec), 8*perSec)}
}

func (l *limitedReader) Read(p []byte) (int, error) {
	if len(p) > l.lim.Burst() {
		p = p[:l.lim.Burst()]
	}
	n, err := l.r.Read(p)
	if n > 0 {
		if werr := l.lim.WaitN(l.ctx, n); werr != nil && err == nil {
			err = io.EOF // the session is ending
		}
	}
	return n, err
}
