package server

import (
	"errors"

	"charm.land/log/v2"

	"github.com/grotto-game/grotto/game/tui"
	"github.com/grotto-game/grotto/server/session"
	"github.com/grotto-game/grotto/store"
)

// This file keeps a player's settings (symbols, colour, chat) in their profile:
// read when the session starts, written when the settings screen changes
// them. The tui never sees the store; it gets the values and a function.

// settingsOf returns the settings kept in fp's profile; the defaults when
// there is no profile yet or it cannot be read (the session still starts).
func (s *Server) settingsOf(fp string) tui.Settings {
	p, err := s.store.Profile(fp)
	if err != nil {
		return tui.Settings{}
	}
	return tui.Settings{Symbols: tui.Symbols(p.Settings.Symbols), Colour: tui.Colour(p.Settings.Colour), Chat: tui.Chat(p.Settings.Chat)}
}

// saveSettings returns tui.Player.SaveSettings for key fp: it writes the
// settings into fp's profile, keeping the rest of it. Errors are in the
// player's words; the write trouble itself goes to the log.
func (s *Server) saveSettings(fp string, logger *log.Logger) func(tui.Settings) error {
	return func(set tui.Settings) error {
		p, err := s.store.Profile(fp)
		if errors.Is(err, store.ErrNotFound) {
			return errors.New("you have no profile yet: choose a name first")
		}
		if err == nil {
			p.Fingerprint = fp // the key's, never the record's text, which may be damaged
			p.Settings = store.Settings{Symbols: string(set.Symbols), Colour: string(set.Colour), Chat: string(set.Chat)}
			err = s.store.PutProfile(p)
		}
		if err != nil {
			logger.Error("could not save the player's settings", "err", err)
			return errors.New(session.Why(err))
		}
		return nil
	}
}
