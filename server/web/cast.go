package web

// This file: /replay/{id}.cast?size=WxH&speed=N&idle=S, a finished game as
// an asciinema recording to download (server/cast), made by the server
// (Config.Casts). The options are checked first (400, one line saying
// what is allowed), then the game (the not-found page, as the replay
// page's: no such game, today's daily); a download takes one of the
// replay pages' slots (Config.MaxReplays) while its recording is made and
// sent, past the address's limits (Config.Gate, as a WebSocket), and the
// server makes few recordings at once (cast.ErrBusy: 503 with
// Retry-After).

import (
	"context"
	"errors"
	"net/http"
	"strconv"
	"time"

	"github.com/grotto-game/grotto/server/cast"
)

// Casts makes the recordings of /replay/{id}.cast; the server implements
// it.
type Casts interface {
	// Cast returns finished game id (digits, as in the address)'s
	// recording made with o, whole. err is cast.ErrBusy (wrapped or not)
	// when too many recordings are being made, ctx's when the visitor has
	// gone, or else, in a visitor's words, why there is no such game to
	// show.
	Cast(ctx context.Context, id string, o cast.Options) ([]byte, error)
}

// CastRetryAfter is the Retry-After of a download refused because too
// many recordings are being made (503).
const CastRetryAfter = 30 * time.Second

// castDownload serves /replay/{id}.cast, id without its ".cast".
func (s *Server) castDownload(w http.ResponseWriter, r *http.Request, id string) {
	q := r.URL.Query()
	o, err := cast.Parse(q.Get("size"), q.Get("speed"), q.Get("idle"))
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	if _, err := s.cfg.Replays.ReplayTitle(id); err != nil { // refused before anything is loaded
		s.notFound(w, err.Error())
		return
	}
	leave, tooMany := s.enter(r)
	if tooMany != nil {
		http.Error(w, tooMany.Error(), http.StatusTooManyRequests)
		return
	}
	defer leave()
	select {
	case s.replays <- struct{}{}:
		defer func() { <-s.replays }()
	default:
		http.Error(w, TooManyReplays, http.StatusServiceUnavailable)
		return
	}
	rec, err := s.cfg.Casts.Cast(r.Context(), id, o)
	switch {
	case errors.Is(err, cast.ErrBusy):
		w.Header().Set("Retry-After", strconv.Itoa(int(CastRetryAfter/time.Second)))
		http.Error(w, "Too many recordings are being made right now; please try again in a minute.", http.StatusServiceUnavailable)
		return
	case r.Context().Err() != nil:
		return // the visitor has gone
	case err != nil:
		s.notFound(w, err.Error())
		return
	}
	n, _ := strconv.ParseUint(id, 10, 64) // ReplayTitle took it: digits
	// The recording took a while to make: the answer has its own time to
	// be sent, as a page's.
	http.NewResponseController(w).SetWriteDeadline(time.Now().Add(s.cfg.PageWriteTimeout))
	h := w.Header()
	h.Set("Content-Type", "application/x-asciicast")
	h.Set("Content-Disposition", `attachment; filename="grotto-`+strconv.FormatUint(n, 10)+`.cast"`)
	h.Set("Content-Length", strconv.Itoa(len(rec)))
	w.Write(rec)
}
