// Record encoding: every stored value is one version byte followed by the
// body, so the format can change without misreading old files.

package bolt

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/grotto-game/grotto/store"
)

// Record versions. Bump one when its body format changes, and keep decoding
// the old one.
const (
	profileV1    byte = 1 // JSON profileRecord
	saveV1       byte = 1 // the caller's blob, verbatim
	scoreV1      byte = 1 // JSON scoreRecord
	quarantineV1 byte = 1 // JSON QuarantineRecord
	finishedV1   byte = 1 // JSON finishedRecord
)

// profileRecord is Profile's on-disk form, decoupled from the Go type so that
// renaming a field does not change the file format.
type profileRecord struct {
	Fingerprint string    `json:"fp"`
	Name        string    `json:"name"`
	Created     time.Time `json:"created"`
	LastSeen    time.Time `json:"last_seen"`
	// Settings is absent in profiles written before settings existed
	// (they decode to the defaults) and when every option is the default.
	Settings *settingsRecord `json:"settings,omitempty"`
}

// settingsRecord is Settings' on-disk form.
type settingsRecord struct {
	Symbols string `json:"symbols,omitempty"`
	Colour  string `json:"colour,omitempty"`
	Chat    string `json:"chat,omitempty"`
}

// scoreRecord is Score's on-disk form.
type scoreRecord struct {
	Name        string    `json:"name"`
	Fingerprint string    `json:"fp"`
	Depth       int       `json:"depth"`
	Turns       int       `json:"turns"`
	Kills       int       `json:"kills"`
	Points      int       `json:"points"`
	Cause       string    `json:"cause"`
	Date        time.Time `json:"date"`
	GameID      uint64    `json:"game_id,omitempty"` // absent before games were kept
	Daily       string    `json:"daily,omitempty"`   // the daily's date; absent for other games
}

// finishedRecord is a Finished's on-disk form; its key is the id.
type finishedRecord struct {
	Score   scoreRecord `json:"score"`
	Cheated bool        `json:"cheated,omitempty"`
	Won     bool        `json:"won,omitempty"`
	Seed    uint64      `json:"seed"`
	Rules   string      `json:"rules"`
	Hash    string      `json:"hash"`
	History []byte      `json:"history"` // base64 in JSON
	Dump    string      `json:"dump"`
}

// encodeJSON returns version followed by the JSON of v.
func encodeJSON(version byte, v any) ([]byte, error) {
	body, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	return append([]byte{version}, body...), nil
}

// decodeJSON checks that rec is version want and unmarshals its body into v.
// Any failure wraps ErrCorrupt and names bucket and key.
func decodeJSON(bucket, key, rec []byte, want byte, v any) error {
	body, err := recordBody(bucket, key, rec, want)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(body, v); err != nil {
		return fmt.Errorf("%w: %s/%q: %v", store.ErrCorrupt, bucket, key, err)
	}
	return nil
}

// recordBody returns rec without its version byte, or an error wrapping
// ErrCorrupt if rec is empty or its version is not want.
func recordBody(bucket, key, rec []byte, want byte) ([]byte, error) {
	if len(rec) == 0 {
		return nil, fmt.Errorf("%w: %s/%q: empty record", store.ErrCorrupt, bucket, key)
	}
	if rec[0] != want {
		return nil, fmt.Errorf("%w: %s/%q: unknown record version %d (want %d)", store.ErrCorrupt, bucket, key, rec[0], want)
	}
	return rec[1:], nil
}

func encodeProfile(p store.Profile) ([]byte, error) {
	r := profileRecord{
		Fingerprint: p.Fingerprint,
		Name:        p.Name,
		Created:     p.Created.UTC(),
		LastSeen:    p.LastSeen.UTC(),
	}
	if p.Settings != (store.Settings{}) {
		r.Settings = &settingsRecord{Symbols: p.Settings.Symbols, Colour: p.Settings.Colour, Chat: p.Settings.Chat}
	}
	return encodeJSON(profileV1, r)
}

func decodeProfile(key, rec []byte) (store.Profile, error) {
	var r profileRecord
	if err := decodeJSON(playersBucket, key, rec, profileV1, &r); err != nil {
		return store.Profile{}, err
	}
	p := store.Profile{Fingerprint: r.Fingerprint, Name: r.Name, Created: r.Created, LastSeen: r.LastSeen}
	if r.Settings != nil {
		p.Settings = store.Settings{Symbols: r.Settings.Symbols, Colour: r.Settings.Colour, Chat: r.Settings.Chat}
	}
	return p, nil
}

func encodeScore(s store.Score) ([]byte, error) {
	return encodeJSON(scoreV1, scoreRecord{
		Name:        s.Name,
		Fingerprint: s.Fingerprint,
		Depth:       s.Depth,
		Turns:       s.Turns,
		Kills:       s.Kills,
		Points:      s.Points,
		Cause:       s.Cause,
		Date:        s.Date.UTC(),
		GameID:      s.GameID,
		Daily:       s.Daily,
	})
}

func decodeScore(key, rec []byte) (store.Score, error) {
	var r scoreRecord
	if err := decodeJSON(scoresBucket, key, rec, scoreV1, &r); err != nil {
		return store.Score{}, err
	}
	return store.Score{
		Name:        r.Name,
		Fingerprint: r.Fingerprint,
		Depth:       r.Depth,
		Turns:       r.Turns,
		Kills:       r.Kills,
		Points:      r.Points,
		Cause:       r.Cause,
		Date:        r.Date,
		GameID:      r.GameID,
		Daily:       r.Daily,
	}, nil
}
