package web

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/grotto-game/grotto/server/cast"
)

// busyCasts makes no recording: the server is busy.
type busyCasts struct{}

func (busyCasts) Cast(context.Context, string, cast.Options) ([]byte, error) {
	return nil, cast.ErrBusy
}

// echoCasts "records" the options it was asked for.
type echoCasts struct{ asked *cast.Options }

func (e echoCasts) Cast(_ context.Context, _ string, o cast.Options) ([]byte, error) {
	*e.asked = o
	return []byte("{\"version\": 2}\n"), nil
}

// TestACastDownloadIsRefusedWhenTheServerIsBusyAndOffersItsFileOtherwise:
// /replay/1.cast answers the recording as a file to save, with the
// options asked; 503 with Retry-After when the server makes too many
// recordings; 400 with one line for an option out of bounds, before any
// game is looked at; without Casts, no download and no link.
func TestACastDownloadIsRefusedWhenTheServerIsBusyAndOffersItsFileOtherwise(t *testing.T) {
	var asked cast.Options
	s := newSite(t, Config{Replays: oneReplay{}, Casts: echoCasts{&asked}})
	status, h, body := get(t, s.http.URL+"/replay/1.cast?size=100x30&speed=2&idle=0.5")
	if status != http.StatusOK || h.Get("Content-Type") != "application/x-asciicast" || h.Get("Content-Disposition") != `attachment; filename="grotto-1.cast"` ||
		body != "{\"version\": 2}\n" || asked != (cast.Options{Width: 100, Height: 30, Speed: 2, Idle: 0.5}) {
		t.Errorf("the download: status %d, headers %v, body %q, asked %+v", status, h, body, asked)
	}
	if status, _, body := get(t, s.http.URL+"/replay/1.cast?speed=99"); status != http.StatusBadRequest || !strings.Contains(body, "speed is a number from 0.25 to 32") {
		t.Errorf("a speed out of bounds: status %d, %q", status, body)
	}
	if status, _, body := get(t, s.http.URL+"/replay/2.cast"); status != http.StatusNotFound || !strings.Contains(body, "No finished game 2") {
		t.Errorf("no such game: status %d:\n%s", status, body)
	}

	busy := newSite(t, Config{Replays: oneReplay{}, Casts: busyCasts{}})
	if status, h, _ := get(t, busy.http.URL+"/replay/1.cast"); status != http.StatusServiceUnavailable || h.Get("Retry-After") != "30" {
		t.Errorf("a busy server: status %d, Retry-After %q; want 503 and 30", status, h.Get("Retry-After"))
	}

	none := newSite(t, Config{Replays: oneReplay{}})
	if status, _, _ := get(t, none.http.URL+"/replay/1.cast"); status != http.StatusNotFound {
		t.Errorf("a download without Casts: status %d, want 404", status)
	}
	if _, _, body := get(t, none.http.URL+"/replay/1"); strings.Contains(body, ".cast") {
		t.Errorf("the replay page links a download it cannot serve:\n%s", body)
	}
}
