package app

import (
	"context"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2/test"

	"jiaohao/dao/daotest"
	"jiaohao/dao/peer"
	"jiaohao/model"
	"jiaohao/screens"
)

// A PC set up with the host's certificate fingerprint reaches an https://
// host with a self-signed certificate; the fingerprint survives the
// settings file, and a wrong or misplaced one is refused with a sentence.
func TestPeerFingerprintSetup(t *testing.T) {
	st := daotest.SQLite(t)
	srv := peer.NewServer(st, st, peer.Options{})
	defer srv.Close()
	ts := httptest.NewTLSServer(srv.Handler())
	defer ts.Close()
	tok, hash, err := peer.NewToken()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.AddTerminal(context.Background(), model.Terminal{Name: "hall", Role: "screen", TokenHash: hash}); err != nil {
		t.Fatal(err)
	}
	cfg := Config{Role: "screen", Mode: screens.ModePeer, Peer: ts.URL, Token: tok, Lang: "zh",
		PeerFingerprint: peer.Fingerprint(ts.Certificate().Raw)}

	// Through the settings file to the next PC, and into its preferences.
	data, err := EncodePCSettings(cfg)
	if err != nil {
		t.Fatal(err)
	}
	got, err := ImportPCSettings(test.NewTempApp(t).Preferences(), data, nil)
	if err != nil || got.PeerFingerprint != cfg.PeerFingerprint {
		t.Fatalf("imported %+v, %v", got, err)
	}

	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	be, err := connect(ctx, got, t.Logf)
	if err != nil {
		t.Fatal(err)
	}
	defer be.close()
	if ws, err := be.st.Windows(ctx); err != nil || len(ws) == 0 {
		t.Fatalf("windows over the pinned host: %v %v", ws, err)
	}

	unpinned := cfg
	unpinned.PeerFingerprint = ""
	be2, err := connect(ctx, unpinned, t.Logf)
	if err != nil {
		t.Fatal(err) // starts, and says it cannot reach the host
	}
	defer be2.close()
	if _, err := be2.st.Windows(ctx); !model.IsCode(err, model.EUnavailable) {
		t.Fatalf("a self-signed host without a pin: %v, want unavailable", err)
	}

	for _, bad := range []Config{
		{Role: "screen", Mode: screens.ModePeer, Peer: strings.Replace(ts.URL, "https", "http", 1), Token: tok, Lang: "zh", PeerFingerprint: cfg.PeerFingerprint},
		{Role: "screen", Mode: screens.ModePeer, Peer: ts.URL, Token: tok, Lang: "zh", PeerFingerprint: "AB:CD"},
	} {
		if err := bad.Validate(); !model.IsCode(err, model.EInvalidInput) {
			t.Errorf("%s with fingerprint %q: %v, want refused", bad.Peer, bad.PeerFingerprint, err)
		}
	}
}
