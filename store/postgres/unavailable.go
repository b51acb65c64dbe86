// Telling a database that went away from one that refused a write: the
// first is store.ErrUnavailable, and the session waits for it to come back.

package postgres

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"strings"
	"syscall"

	"github.com/jackc/pgx/v5/pgconn"

	"github.com/grotto-game/grotto/store"
)

// avail wraps err with store.ErrUnavailable when it means the database
// could not be reached or went away during the call (see unavailable);
// other errors are returned as they are.
func avail(err error) error {
	if err == nil || errors.Is(err, store.ErrUnavailable) || !unavailable(err) {
		return err
	}
	return fmt.Errorf("%w: %w", store.ErrUnavailable, err)
}

// unavailable reports whether err says the database was out of reach
// rather than that it refused what was asked:
//   - SQLSTATE class 08 (connection exception), 57P01 admin_shutdown,
//     57P02 crash_shutdown, 57P03 cannot_connect_now (starting up or
//     shutting down), 53300 too_many_connections and 55P03
//     lock_not_available (a lock held longer than LockWait) (PostgreSQL
//     docs, Appendix A "PostgreSQL Error Codes");
//   - a connection that could not be made (pgconn.ConnectError), or broke:
//     refused, reset, a broken pipe, an unexpected end of stream, any
//     network error;
//   - no answer within OpTimeout (pgconn.Timeout, a deadline);
//   - anything pgconn says is safe to retry because nothing was sent.
func unavailable(err error) bool {
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) {
		switch code := pgErr.Code; {
		case strings.HasPrefix(code, "08"), code == "57P01", code == "57P02", code == "57P03", code == "53300",
			code == "55P03": // lock_not_available: waited LockWait for a lock
			return true
		}
		return false
	}
	var connErr *pgconn.ConnectError
	var netErr net.Error
	switch {
	case errors.As(err, &connErr), errors.As(err, &netErr),
		pgconn.Timeout(err), errors.Is(err, context.DeadlineExceeded),
		errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF),
		errors.Is(err, syscall.ECONNREFUSED), errors.Is(err, syscall.ECONNRESET), errors.Is(err, syscall.EPIPE),
		pgconn.SafeToRetry(err):
		return true
	}
	return false
}
