package web

// This file: the one-time links that let a browser play a key's game, and
// the session cookie a link turns into. A link is /play/<token>: 32 random
// bytes, base64url without padding (RFC 4648, section 5); the store keeps
// only its SHA-256 (store.WebTokens), shared by every node behind one
// address. Redeeming it (once, within LinkTTL) sets a cookie holding a
// second token of the same shape, good for SessionTTL, whose hash the
// store keeps too: a reload of the play page keeps playing, on any node.

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"net/http"
	"time"

	"github.com/grotto-game/grotto/store"
)

// Lifetimes of the tokens.
const (
	// LinkTTL is how long a link `ssh host web` prints may be used (once).
	LinkTTL = 10 * time.Minute
	// SessionTTL is how long a browser plays after its link was redeemed:
	// reloads keep playing until then, and then it needs a new link.
	SessionTTL = 12 * time.Hour
	// CookieName is the play session's cookie (Path /, so that a watch
	// page's chat knows the key too; HttpOnly, SameSite=Strict, Secure
	// when the base URL is https).
	CookieName = "grotto_play"
	// tokenBytes is the random part of a token, in bytes.
	tokenBytes = 32
)

// newToken returns a fresh token and the hash the store keeps of it.
func newToken() (token string, hash []byte) {
	b := make([]byte, tokenBytes)
	rand.Read(b) // never fails (crypto/rand docs, Go 1.24+)
	return base64.RawURLEncoding.EncodeToString(b), hashToken(b)
}

// hashToken is the SHA-256 of a token's bytes.
func hashToken(b []byte) []byte {
	h := sha256.Sum256(b)
	return h[:]
}

// parseToken returns the hash of text, false when text is not a token's
// shape (forged or mangled).
func parseToken(text string) ([]byte, bool) {
	b, err := base64.RawURLEncoding.DecodeString(text)
	if err != nil || len(b) != tokenBytes {
		return nil, false
	}
	return hashToken(b), true
}

// IssueLink makes a one-time link for key fp: the store keeps its hash,
// good for LinkTTL. It returns the link's path, "/play/" and the token,
// for the caller to put after the base URL. Errors: the server has no
// store of tokens; the store's (store.ErrUnavailable, wrapped).
func (s *Server) IssueLink(ctx context.Context, fp string) (string, error) {
	if s.cfg.Tokens == nil {
		return "", errors.New("this server has no web tokens")
	}
	token, hash := newToken()
	now := s.cfg.Now()
	if err := s.cfg.Tokens.IssueWebToken(ctx, store.WebLink, hash, fp, now.Add(LinkTTL), now); err != nil {
		return "", err
	}
	return "/play/" + token, nil
}

// redeemLink serves /play/{token}: a good link sets the session cookie
// and sends the browser on to /play (303); a link used already or expired
// gets a refusal page with 410 Gone, one never issued (forged) 403, a
// banned key 403 with its reason; the store out of reach 503.
func (s *Server) redeemLink(w http.ResponseWriter, r *http.Request) {
	if s.cfg.Tokens == nil || s.cfg.Players == nil {
		s.notFound(w, "This server does not let browsers play.")
		return
	}
	hash, ok := parseToken(r.PathValue("token"))
	if !ok {
		s.refuseToLink(w, http.StatusForbidden, "This link is not one this server gave.", "for a link to play in this browser.")
		return
	}
	fp, err := s.cfg.Tokens.RedeemWebToken(r.Context(), store.WebLink, hash, s.cfg.Now())
	switch {
	case errors.Is(err, store.ErrNotFound):
		s.refuseToLink(w, http.StatusForbidden, "This link is not one this server gave.", "for a link to play in this browser.")
		return
	case errors.Is(err, store.ErrTokenUsed):
		s.refuseToLink(w, http.StatusGone, "This link has been used already: each link opens one browser, once.", "for a new one.")
		return
	case errors.Is(err, store.ErrTokenExpired):
		s.refuseToLink(w, http.StatusGone, "This link has expired: a link works for 10 minutes.", "for a new one.")
		return
	case err != nil:
		s.log.Error("web: a play link could not be redeemed", "err", err)
		s.refuse(w, http.StatusServiceUnavailable, "grotto cannot read its database right now; please try the link again in a moment.")
		return
	}
	if why := s.cfg.Players.Admit(fp); why != nil {
		s.log.Info("web: a play link of a refused key", "fp", fp, "why", why)
		s.refuse(w, http.StatusForbidden, why.Error())
		return
	}
	token, sessHash := newToken()
	now := s.cfg.Now()
	if err := s.cfg.Tokens.IssueWebToken(r.Context(), store.WebSession, sessHash, fp, now.Add(SessionTTL), now); err != nil {
		s.log.Error("web: a play session could not be recorded", "err", err)
		s.refuseToLink(w, http.StatusServiceUnavailable, "grotto cannot write to its database right now, and the link is used up.", "again in a moment.")
		return
	}
	s.log.Info("web: a browser was tied to a key", "fp", fp)
	http.SetCookie(w, &http.Cookie{Name: CookieName, Value: token, Path: "/", MaxAge: int(SessionTTL / time.Second),
		HttpOnly: true, SameSite: http.SameSiteStrictMode, Secure: s.secure})
	http.Redirect(w, r, "/play", http.StatusSeeOther)
}

// sessionKey returns the key the request's play cookie is tied to; an
// error that the page can show when there is none, or it has expired.
func (s *Server) sessionKey(r *http.Request) (string, error) {
	errNoSession := errors.New("This browser is not tied to a key, so it can only watch. Run " + s.sshWeb() + " for a link.")
	c, err := r.Cookie(CookieName)
	if err != nil {
		return "", errNoSession
	}
	hash, ok := parseToken(c.Value)
	if !ok {
		return "", errNoSession
	}
	fp, err := s.cfg.Tokens.RedeemWebToken(r.Context(), store.WebSession, hash, s.cfg.Now())
	switch {
	case errors.Is(err, store.ErrNotFound):
		return "", errNoSession
	case errors.Is(err, store.ErrTokenExpired):
		return "", errors.New("This browser's game session has expired. Run " + s.sshWeb() + " for a new link.")
	case err != nil:
		s.log.Error("web: a play session could not be read", "err", err)
		return "", errors.New("grotto cannot read its database right now; reload in a moment.")
	}
	return fp, nil
}

// sshWeb is the command that prints a play link (sshCommand, "web").
func (s *Server) sshWeb() string { return s.sshCommand() + " web" }

// sshCommand is the command that reaches the SSH server: Config.SSH's,
// else "ssh" and the base URL's host name (or <host>).
func (s *Server) sshCommand() string {
	if s.cfg.SSH != nil {
		return s.cfg.SSH()
	}
	if s.hostName == "" {
		return "ssh <host>"
	}
	return "ssh " + s.hostName
}
