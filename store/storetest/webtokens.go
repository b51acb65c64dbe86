// The web token contract (see store.WebTokens): one-time links and
// session tokens, for every store that implements them.

package storetest

import (
	"crypto/sha256"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/grotto-game/grotto/store"
)

// WebTokenStore is a store with web tokens.
type WebTokenStore interface {
	store.Store
	store.WebTokens
}

// RunWebTokens runs the web token contract against the stores open
// returns (a new, empty store each call; the suite closes it).
func RunWebTokens(t *testing.T, open func(t *testing.T) WebTokenStore) {
	for _, c := range []struct {
		name string
		test func(*testing.T, WebTokenStore)
	}{
		{"a link is redeemed once for its key; a second redeem is ErrTokenUsed", linkOnce},
		{"a link past its expiry is ErrTokenExpired and stays unused", linkExpired},
		{"a hash never issued, or issued as the other kind, is ErrNotFound and consumes nothing", tokenUnknown},
		{"a session token is redeemed again and again until it expires", sessionToken},
		{"twenty redeems of one link at once: exactly one gets the key", linkRace},
		{"issuing purges the tokens long expired", tokenPurge},
	} {
		t.Run(c.name, func(t *testing.T) {
			st := open(t)
			defer st.Close()
			c.test(t, st)
		})
	}
}

// tokenHash is the hash of a made-up token named s.
func tokenHash(s string) []byte {
	h := sha256.Sum256([]byte(s))
	return h[:]
}

func issue(t *testing.T, st WebTokenStore, kind store.WebTokenKind, token, fp string, expires time.Time) {
	t.Helper()
	if err := st.IssueWebToken(ctx, kind, tokenHash(token), fp, expires, when); err != nil {
		t.Fatalf("issue %s: %v", token, err)
	}
}

func linkOnce(t *testing.T, st WebTokenStore) {
	issue(t, st, store.WebLink, "link", "SHA256:ann", when.Add(10*time.Minute))
	fp, err := st.RedeemWebToken(ctx, store.WebLink, tokenHash("link"), when.Add(time.Minute))
	if err != nil || fp != "SHA256:ann" {
		t.Fatalf("redeem: %q, %v; want SHA256:ann", fp, err)
	}
	if fp, err := st.RedeemWebToken(ctx, store.WebLink, tokenHash("link"), when.Add(2*time.Minute)); !errors.Is(err, store.ErrTokenUsed) || fp != "" {
		t.Errorf("second redeem: %q, %v; want ErrTokenUsed", fp, err)
	}
	if err := st.IssueWebToken(ctx, store.WebLink, tokenHash("link"), "SHA256:eve", when.Add(time.Hour), when); err == nil {
		t.Error("a hash issued again was accepted")
	}
	if _, err := st.RedeemWebToken(ctx, store.WebLink, tokenHash("link"), when.Add(3*time.Minute)); !errors.Is(err, store.ErrTokenUsed) {
		t.Errorf("after a refused re-issue: %v, want ErrTokenUsed", err)
	}
}

func linkExpired(t *testing.T, st WebTokenStore) {
	exp := when.Add(10 * time.Minute)
	issue(t, st, store.WebLink, "late", "SHA256:ann", exp)
	if _, err := st.RedeemWebToken(ctx, store.WebLink, tokenHash("late"), exp); !errors.Is(err, store.ErrTokenExpired) {
		t.Errorf("redeem at the expiry: %v, want ErrTokenExpired", err)
	}
	if _, err := st.RedeemWebToken(ctx, store.WebLink, tokenHash("late"), exp.Add(time.Hour)); !errors.Is(err, store.ErrTokenExpired) {
		t.Errorf("redeem an hour later: %v, want ErrTokenExpired", err)
	}
	if fp, err := st.RedeemWebToken(ctx, store.WebLink, tokenHash("late"), exp.Add(-time.Microsecond)); err != nil || fp != "SHA256:ann" {
		t.Errorf("redeem just before the expiry: %q, %v; want SHA256:ann (an expired try used nothing)", fp, err)
	}
}

func tokenUnknown(t *testing.T, st WebTokenStore) {
	if _, err := st.RedeemWebToken(ctx, store.WebLink, tokenHash("forged"), when); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("a forged link: %v, want ErrNotFound", err)
	}
	if _, err := st.RedeemWebToken(ctx, store.WebSession, tokenHash("forged"), when); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("a forged session: %v, want ErrNotFound", err)
	}
	issue(t, st, store.WebLink, "link", "SHA256:ann", when.Add(time.Hour))
	issue(t, st, store.WebSession, "cookie", "SHA256:bob", when.Add(time.Hour))
	if _, err := st.RedeemWebToken(ctx, store.WebSession, tokenHash("link"), when); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("a link used as a session: %v, want ErrNotFound", err)
	}
	if _, err := st.RedeemWebToken(ctx, store.WebLink, tokenHash("cookie"), when); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("a session used as a link: %v, want ErrNotFound", err)
	}
	if fp, err := st.RedeemWebToken(ctx, store.WebLink, tokenHash("link"), when); err != nil || fp != "SHA256:ann" {
		t.Errorf("the link after its misuse: %q, %v; want SHA256:ann", fp, err)
	}
}

func sessionToken(t *testing.T, st WebTokenStore) {
	exp := when.Add(12 * time.Hour)
	issue(t, st, store.WebSession, "cookie", "SHA256:ann", exp)
	for i := range 3 {
		if fp, err := st.RedeemWebToken(ctx, store.WebSession, tokenHash("cookie"), when.Add(time.Duration(i)*time.Hour)); err != nil || fp != "SHA256:ann" {
			t.Errorf("use %d: %q, %v; want SHA256:ann", i+1, fp, err)
		}
	}
	if _, err := st.RedeemWebToken(ctx, store.WebSession, tokenHash("cookie"), exp); !errors.Is(err, store.ErrTokenExpired) {
		t.Errorf("at the expiry: %v, want ErrTokenExpired", err)
	}
}

func linkRace(t *testing.T, st WebTokenStore) {
	issue(t, st, store.WebLink, "race", "SHA256:ann", when.Add(time.Hour))
	var wg sync.WaitGroup
	results := make([]error, 20)
	for i := range results {
		wg.Add(1)
		go func() {
			defer wg.Done()
			fp, err := st.RedeemWebToken(ctx, store.WebLink, tokenHash("race"), when)
			if err == nil && fp != "SHA256:ann" {
				err = fmt.Errorf("wrong key %q", fp)
			}
			results[i] = err
		}()
	}
	wg.Wait()
	won := 0
	for _, err := range results {
		switch {
		case err == nil:
			won++
		case !errors.Is(err, store.ErrTokenUsed):
			t.Errorf("a losing redeem: %v, want ErrTokenUsed", err)
		}
	}
	if won != 1 {
		t.Errorf("%d redeems got the key, want exactly 1", won)
	}
}

func tokenPurge(t *testing.T, st WebTokenStore) {
	issue(t, st, store.WebLink, "old", "SHA256:ann", when.Add(-store.WebTokenPurgeAfter-time.Minute))
	issue(t, st, store.WebLink, "recent", "SHA256:ann", when.Add(-time.Minute))
	issue(t, st, store.WebLink, "new", "SHA256:ann", when.Add(time.Minute)) // purges "old"
	if _, err := st.RedeemWebToken(ctx, store.WebLink, tokenHash("old"), when); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("a link expired over a day ago: %v, want ErrNotFound (purged)", err)
	}
	if _, err := st.RedeemWebToken(ctx, store.WebLink, tokenHash("recent"), when); !errors.Is(err, store.ErrTokenExpired) {
		t.Errorf("a link expired a minute ago: %v, want ErrTokenExpired (kept)", err)
	}
}
