package app

import (
	"context"
	"crypto/tls"
	"fmt"
	"io"
	"log/slog"
	"net"
	"strings"
	"sync"
	"time"

	"jiaohao/dao/peer"
	"jiaohao/dao/sqlstore"
	"jiaohao/model"
	"jiaohao/reports"
)

func init() {
	register("serve", "host the branch for other PCs: --db DSN [--branch CODE|all] [--listen :8520] [--tls-cert F --tls-key F] [--health-dir D]", runServe)
}

// runServe is peer server mode without a screen: this PC holds the queue
// and every other PC reaches it over the LAN. SIGINT or SIGTERM stops it
// gracefully.
func runServe(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("serve", stderr)
	dsn := dbFlag(fs)
	branch := fs.String("branch", "", "branch code to serve, or all: every branch of the database, each PC's token naming its own (default: the database's only branch)")
	listen := fs.String("listen", ":"+defaultPort, "address to listen on")
	certFile := fs.String("tls-cert", "", "TLS certificate (PEM); serve HTTPS with --tls-key")
	keyFile := fs.String("tls-key", "", "TLS private key (PEM)")
	takeLimit := fs.Int("take-limit", 30, "numbers one token may take per minute (0: no limit)")
	sweep := fs.Duration("sweep", time.Second, "how often to apply call timeouts and idle-window pauses (0: never)")
	healthDir := fs.String("health-dir", "", "folder for the daily health check's files (default: the health_check_dir setting under the data folder)")
	healthLang := fs.String("health-lang", "zh", "language of the daily health check's PDFs: zh or en")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if (*certFile == "") != (*keyFile == "") {
		return model.Errorf(model.EInvalidInput, "--tls-cert 与 --tls-key 须同时给出 (give both --tls-cert and --tls-key)")
	}
	if _, err := reports.ParseLang(*healthLang); err != nil {
		return err
	}
	if *takeLimit < 0 || *sweep < 0 {
		return model.Errorf(model.EInvalidInput, "--take-limit 与 --sweep 不能为负 (must not be negative)")
	}
	var tlsConf *tls.Config
	if *certFile != "" {
		pair, err := tls.LoadX509KeyPair(*certFile, *keyFile)
		if err != nil {
			return model.Errorf(model.EInvalidInput, "无法读取 TLS 证书或私钥 (could not load the TLS certificate or key)")
		}
		tlsConf = &tls.Config{Certificates: []tls.Certificate{pair}, MinVersion: tls.VersionTLS12}
	}
	log := slog.New(slog.NewTextHandler(stderr, nil))
	all := strings.EqualFold(strings.TrimSpace(*branch), model.AllBranches)
	var st *sqlstore.GormStore
	var err error
	if all {
		st, err = sqlstore.Open(ctx, *dsn)
	} else {
		st, err = sqlstore.OpenBranch(ctx, *dsn, *branch)
	}
	if err != nil {
		return err
	}
	defer st.Close()
	st.SetLogger(log) // an outage of the database: its cause once, and its end
	ln, err := net.Listen("tcp", *listen)
	if err != nil {
		return model.Errorf(model.EUnavailable, "无法监听 %s：%s", *listen, err.Error())
	}
	scheme := "http"
	if tlsConf != nil {
		ln, scheme = tls.NewListener(ln, tlsConf), "https"
	}
	limit := *takeLimit
	if limit == 0 {
		limit = -1
	}
	hctx, stopHealth := context.WithCancel(ctx)
	var healthRuns sync.WaitGroup
	defer func() { stopHealth(); healthRuns.Wait() }()
	// serveBranch is one branch's Server, with its report and its daily
	// health check (healthHost.folder keeps two branches' files apart).
	serveBranch := func(gs *sqlstore.GormStore) *peer.Server {
		health := newHealthHost(gs, *healthDir, *healthLang, func(f string, a ...any) { log.Info(fmt.Sprintf(f, a...)) })
		healthRuns.Add(1)
		go func() { defer healthRuns.Done(); health.loop(hctx) }()
		return peer.NewServer(gs, gs, peer.Options{TakePerMinute: limit, SweepEvery: *sweep, Logger: log, Report: hostReport(gs), Health: health})
	}
	code, err := st.BranchCode(ctx)
	if err != nil {
		return err
	}
	var srv interface {
		Serve(context.Context, net.Listener) error
	}
	served, named := "the branch", ", code "+code
	if all {
		var mu sync.Mutex
		var opened []*sqlstore.GormStore
		defer func() {
			mu.Lock()
			defer mu.Unlock()
			for _, b := range opened {
				b.Close()
			}
		}()
		all, err := st.Branches(ctx)
		if err != nil {
			return err
		}
		br := peer.NewBranches(serveBranch(st), st.BranchID(), st, func(ctx context.Context, id int64) (*peer.Server, error) {
			b, err := st.BranchByID(ctx, id)
			if err != nil {
				return nil, err
			}
			mu.Lock()
			opened = append(opened, b)
			mu.Unlock()
			return serveBranch(b), nil
		})
		// Head office's PCs (token add --role hq) watch every branch here.
		br.ServeHQ(peer.HQOptions{Terminals: st.HeadOffice(), Branches: st.Branches, Report: hqReport(st)})
		// Every branch's timers and health check run from the start, not
		// from its first PC's request.
		for _, b := range all {
			if b.ID != st.BranchID() {
				br.Open(b.ID)
			}
		}
		srv = br
		served, named = "every branch of the database", ""
	} else {
		srv = serveBranch(st)
	}
	// The DSN may hold a password: name only the engine.
	fmt.Fprintf(stderr, "jiaohao: serving %s on %s://%s (%s database)%s\n", served, scheme, ln.Addr(), st.Engine(), named)
	staff, _ := model.RoleHandheld.Spec()
	fmt.Fprintf(stderr, "jiaohao: staff handhelds sign in at %s://%s%s\n", scheme, ln.Addr(), staff.Page)
	if all {
		fmt.Fprintf(stderr, "jiaohao: head office's overview of every branch at %s://%s/api/v1/hq/overview (hq tokens)\n", scheme, ln.Addr())
	}
	if tlsConf == nil {
		// The staff sign in over the branch Wi-Fi: in plain HTTP anyone on it
		// reads the handheld's token and its session cookie.
		log.Warn("staff handhelds sign in without TLS: on a shared Wi-Fi their token and session can be read; serve with --tls-cert and --tls-key")
	}
	if tlsConf != nil {
		// What each PC pins in its setup to trust a self-signed certificate.
		fmt.Fprintf(stderr, "jiaohao: certificate SHA-256 %s\n", peer.Fingerprint(tlsConf.Certificates[0].Certificate[0]))
	}
	if err := srv.Serve(ctx, ln); err != nil {
		return err
	}
	fmt.Fprintln(stderr, "jiaohao: server stopped")
	return nil
}
