// Web tokens: the one-time links `ssh host web` prints, and the browser
// sessions they open (server/web). The store keeps only a hash of each
// token, so a copy of the database lets nobody in; and it is the store's,
// not a node's, so that any node behind one address can redeem a link
// another node issued.

package store

import (
	"context"
	"errors"
	"time"
)

// ErrTokenUsed is returned by [WebTokens.RedeemWebToken] for a
// [WebLink] that was redeemed already.
var ErrTokenUsed = errors.New("web token already used")

// ErrTokenExpired is returned by [WebTokens.RedeemWebToken] for a token
// whose expiry has passed.
var ErrTokenExpired = errors.New("web token expired")

// WebTokenKind says what a web token is good for.
type WebTokenKind uint8

const (
	// WebLink is the token of a one-time link (`ssh host web`): it is
	// redeemed once, and only before it expires.
	WebLink WebTokenKind = 1
	// WebSession is the token of a browser's session cookie: it is
	// redeemed on every request until it expires.
	WebSession WebTokenKind = 2
)

// WebTokenPurgeAfter is how long a token is kept past its expiry, so that
// its late use is told "expired" or "used" rather than "unknown". Issuing
// a token deletes the tokens older than that.
const WebTokenPurgeAfter = 24 * time.Hour

// WebTokens keeps the hashes of web tokens, each tied to a player's key
// until it expires. Times are the caller's (a node's clock): a token's
// life is minutes or hours, far beyond the skew of synchronised clocks.
type WebTokens interface {
	// IssueWebToken records a token of kind whose hash (a SHA-256 of the
	// token, 32 bytes) is hash, for fp, valid until expires; and deletes
	// the tokens that expired more than [WebTokenPurgeAfter] before now.
	// A hash recorded already is an error. Errors: ErrUnavailable
	// (wrapped).
	IssueWebToken(ctx context.Context, kind WebTokenKind, hash []byte, fp string, expires, now time.Time) error
	// RedeemWebToken returns the fingerprint of the token of kind whose
	// hash is hash. A [WebLink] is marked used atomically with the check:
	// of two concurrent redeems (on any nodes) exactly one gets fp, the
	// other [ErrTokenUsed]. Errors: [ErrNotFound] for a hash never issued
	// (or purged), or issued as another kind; [ErrTokenUsed];
	// [ErrTokenExpired] once now is not before the expiry; ErrUnavailable
	// (wrapped).
	RedeemWebToken(ctx context.Context, kind WebTokenKind, hash []byte, now time.Time) (fp string, err error)
}
