package peer

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"jiaohao/dao/daotest"
	"jiaohao/dao/sqlstore"
	"jiaohao/model"
)

// buildJiaohao builds the real binary once per test run.
func buildJiaohao(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "jiaohao")
	out, err := exec.Command("go", "build", "-o", bin, "jiaohao").CombinedOutput()
	if err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// startServe runs `jiaohao serve` on a free port and returns its base URL
// once it says it is listening.
func startServe(t *testing.T, bin, dsn string) (*exec.Cmd, string) {
	t.Helper()
	cmd := exec.Command(bin, "serve", "--db", dsn, "--listen", "127.0.0.1:0", "--take-limit", "0", "--sweep", "0")
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	lines := bufio.NewScanner(stderr)
	for lines.Scan() {
		if _, after, ok := strings.Cut(lines.Text(), "serving the branch on "); ok {
			go io.Copy(io.Discard, stderr) // keep the pipe flowing
			return cmd, strings.Fields(after)[0]
		}
	}
	t.Fatalf("jiaohao serve did not start")
	return nil, ""
}

// The server killed hard in the middle of 200 concurrent takes, then
// started again on the same database: every number it answered 201 for is
// there, no number exists twice, and the event log has no hole.
func TestCrashDuringTakes(t *testing.T) {
	bin := buildJiaohao(t)
	dsn := daotest.SQLiteDSN(t)
	out, err := exec.Command(bin, "token", "add", "--db", dsn, "--role", "kiosk").Output()
	if err != nil {
		t.Fatalf("token add: %v", err)
	}
	token := strings.TrimSpace(string(out))
	if strings.Contains(token, "\n") || !strings.HasPrefix(token, tokenPrefix) {
		t.Fatalf("token add printed %q, want one token line", token)
	}
	cmd, base := startServe(t, bin, dsn)

	hc := &http.Client{Timeout: 20 * time.Second}
	take := func(base string) (model.Ticket, int) {
		req, _ := http.NewRequest("POST", base+"/api/v1/tickets", strings.NewReader(`{"service":"A"}`))
		req.Header.Set("Authorization", "Bearer "+token)
		resp, err := hc.Do(req)
		if err != nil {
			return model.Ticket{}, 0
		}
		defer resp.Body.Close()
		var tk model.Ticket
		if resp.StatusCode == http.StatusCreated && json.NewDecoder(resp.Body).Decode(&tk) != nil {
			return model.Ticket{}, 0 // cut mid-body: the client never saw a number
		}
		return tk, resp.StatusCode
	}

	var (
		mu       sync.Mutex
		answered = map[int64]string{}
		oks      atomic.Int32
		killOnce sync.Once
		wg       sync.WaitGroup
		gate     = make(chan struct{})
	)
	for i := 0; i < 200; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-gate
			tk, status := take(base)
			if status != http.StatusCreated {
				return
			}
			mu.Lock()
			answered[tk.ID] = tk.Number
			mu.Unlock()
			if oks.Add(1) == 60 {
				killOnce.Do(func() { cmd.Process.Kill() }) // SIGKILL: no shutdown, no flush
			}
		}()
	}
	close(gate)
	wg.Wait()
	killOnce.Do(func() { cmd.Process.Kill() })
	cmd.Wait()
	if len(answered) < 60 {
		t.Fatalf("only %d takes answered before the kill", len(answered))
	}
	t.Logf("%d of 200 takes answered 201 before SIGKILL", len(answered))

	_, base = startServe(t, bin, dsn)
	for id, number := range answered {
		req, _ := http.NewRequest("GET", fmt.Sprintf("%s/api/v1/tickets/%d", base, id), nil)
		req.Header.Set("Authorization", "Bearer "+token)
		resp, err := hc.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		var tk model.Ticket
		json.NewDecoder(resp.Body).Decode(&tk)
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK || tk.Number != number {
			t.Fatalf("ticket %d (%s) answered 201 but after restart: %d %q", id, number, resp.StatusCode, tk.Number)
		}
	}
	after, status := take(base)
	if status != http.StatusCreated {
		t.Fatalf("take after restart: %d", status)
	}

	st, err := sqlstore.Open(context.Background(), dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	var dups []string
	if err := st.DB().Raw("SELECT number FROM ticket GROUP BY number, business_date HAVING COUNT(*) > 1").Scan(&dups).Error; err != nil {
		t.Fatal(err)
	}
	if len(dups) > 0 {
		t.Fatalf("numbers issued twice: %v", dups)
	}
	var versions []int64
	if err := st.DB().Raw("SELECT version FROM queue_event ORDER BY version").Scan(&versions).Error; err != nil {
		t.Fatal(err)
	}
	for i, v := range versions {
		if v != int64(i+1) {
			t.Fatalf("event versions not contiguous: position %d holds %d", i, v)
		}
	}
	var head, tickets, takes int64
	st.DB().Raw("SELECT version FROM branch WHERE id = ?", st.BranchID()).Scan(&head)
	st.DB().Raw("SELECT COUNT(*) FROM ticket").Scan(&tickets)
	// Besides the takes, serve records the daily health checks it caught up on.
	st.DB().Raw("SELECT COUNT(*) FROM queue_event WHERE kind = ?", model.EvTake).Scan(&takes)
	if head != int64(len(versions)) || tickets != takes {
		t.Fatalf("branch version %d, %d events, %d tickets, %d take events: want version = events, tickets = takes", head, len(versions), tickets, takes)
	}
	if _, dup := answered[after.ID]; dup {
		t.Fatalf("the take after restart reused ticket %d", after.ID)
	}
}
