package web

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"
)

// players admits every key but "SHA256:banned" and plays nothing.
type players struct{}

func (players) Admit(fp string) error {
	if fp == "SHA256:banned" {
		return errors.New("This key is banned from this server.")
	}
	return nil
}
func (players) Play(seat *Seat) { seat.End("bye", true) }

// clock is a settable time.
type clock struct{ t time.Time }

func (c *clock) now() time.Time { return c.t }

func noFollow() *http.Client {
	return &http.Client{Timeout: waitLong, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
}

func TestALinkWorksOnceWithinTenMinutesAndSetsAStrictCookie(t *testing.T) {
	c := &clock{t: time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)}
	s := newSite(t, Config{Players: players{}, Now: c.now, BaseURL: "https://play.example.org/"})
	s.srv.cfg.Tokens = s.db
	fresh := func(fp string) string {
		path, err := s.srv.IssueLink(context.Background(), fp)
		if err != nil || !strings.HasPrefix(path, "/play/") || len(path) != len("/play/")+43 {
			t.Fatalf("IssueLink: %q, %v; want /play/ and 43 characters", path, err)
		}
		return s.http.URL + path
	}

	link := fresh("SHA256:ann")
	resp, err := noFollow().Get(link)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != "/play" {
		t.Fatalf("the link: %d to %q, want 303 to /play", resp.StatusCode, resp.Header.Get("Location"))
	}
	cookies := resp.Cookies()
	if len(cookies) != 1 || cookies[0].Name != CookieName || !cookies[0].HttpOnly || !cookies[0].Secure ||
		cookies[0].SameSite != http.SameSiteStrictMode || cookies[0].Path != "/" || cookies[0].MaxAge != 12*60*60 {
		t.Errorf("the cookie: %+v; want %s, HttpOnly, Secure (https base URL), SameSite=Strict, Path /play, 12 h", cookies, CookieName)
	}
	if code, _, body := get(t, link); code != http.StatusGone || !strings.Contains(body, "used already") || !strings.Contains(body, "ssh play.example.org web") {
		t.Errorf("the link again: %d %q, want 410 saying it was used and how to get another", code, body)
	}

	late := fresh("SHA256:ann")
	c.t = c.t.Add(LinkTTL)
	if code, _, body := get(t, late); code != http.StatusGone || !strings.Contains(body, "expired") {
		t.Errorf("a link 10 minutes old: %d %q, want 410 expired", code, body)
	}
	c.t = c.t.Add(-time.Second)
	if code, _, _ := get(t, late); code != http.StatusOK { // followed to /play
		t.Errorf("the same link a second before it expires: %d, want it to work", code)
	}

	if code, _, body := get(t, fresh("SHA256:banned")); code != http.StatusForbidden || !strings.Contains(body, "banned") {
		t.Errorf("a banned key's link: %d %q, want 403 banned", code, body)
	}
}

// TestARefusalShowsTheSSHCommandInACodeElement: the command to type is in
// <code>, as Config.SSH gives it, never between backticks.
func TestARefusalShowsTheSSHCommandInACodeElement(t *testing.T) {
	s := newSite(t, Config{Players: players{}, SSH: func() string { return "ssh -p 2222 play.example.org" }, BaseURL: "https://www.example.org"})
	s.srv.cfg.Tokens = s.db
	code, _, body := get(t, s.http.URL+"/play/abc")
	if code != http.StatusForbidden || !strings.Contains(body, "<code>ssh -p 2222 play.example.org web</code>") || strings.Contains(body, "`") {
		t.Errorf("a forged link: %d %q; want 403 with <code>ssh -p 2222 play.example.org web</code>, no backtick", code, body)
	}
}
