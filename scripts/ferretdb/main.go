// Command ferretdb runs an embedded FerretDB v1 (MongoDB wire protocol,
// SQLite backend) for tests and local development.
//
// It exists because FerretDB's own cmd panics without its build-time
// version file when built from the module proxy; the embeddable package
// does not need it. It also adds the _id indexes FerretDB's SQLite queries
// can use (see idindex.go), the PostgreSQL indexes its pushed-down filters
// can use (see pgindex.go), and before it opens the SQLite directory it
// completes or undoes catalogue changes a kill -9 cut off halfway (see repair.go).
//
// Usage: ferretdb -listen 127.0.0.1:27017 -data ./.data/ferretdb [-postgresql-url URL] [-disable-pushdown]
package main

import (
	"context"
	"flag"
	"log"
	"log/slog"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/FerretDB/FerretDB/ferretdb"
)

func main() {
	listen := flag.String("listen", "127.0.0.1:27017", "TCP address to listen on")
	data := flag.String("data", ".data/ferretdb", "directory for SQLite databases")
	postgresURL := flag.String("postgresql-url", "", "use the PostgreSQL backend at this URL instead of SQLite")
	disablePushdown := flag.Bool("disable-pushdown", false, "filter every document in FerretDB, pushing no filter down to SQL (the reference of test/scripts/ferretdb/pushdown.test.ts)")
	flag.Parse()

	if err := os.MkdirAll(*data, 0o755); err != nil {
		log.Fatalf("ferretdb: cannot create data directory: %v", err)
	}

	logger := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	cfg := &ferretdb.Config{
		Listener:  ferretdb.ListenerConfig{TCP: *listen},
		Logger:    logger,
		Handler:   "sqlite",
		SQLiteURL: "file:" + *data + "/",

		DisablePushdown: *disablePushdown,
	}
	if *postgresURL != "" {
		cfg.Handler, cfg.PostgreSQLURL = "postgresql", *postgresURL
	}
	if *postgresURL == "" {
		repairDatabases(context.Background(), *data, logger)
	}
	if *postgresURL != "" {
		// The patched backend's date ranges call this function (pgindex.go): it exists before any query.
		// Another instance creating it at the same moment fails one of the two: try again.
		err := execOnce(context.Background(), *postgresURL, ferretdb.MinNumberFunction)
		for try := 1; err != nil && try < 5; try++ {
			time.Sleep(200 * time.Millisecond)
			err = execOnce(context.Background(), *postgresURL, ferretdb.MinNumberFunction)
		}
		if err != nil {
			log.Fatalf("ferretdb: cannot create the range function in PostgreSQL: %v", err)
		}
	}
	f, err := ferretdb.New(cfg)
	if err != nil {
		log.Fatalf("ferretdb: %v", err)
	}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if *postgresURL == "" {
		go keepIndexingIDs(ctx, *data, time.Second, logger)
	} else {
		go keepIndexingJSONPaths(ctx, *postgresURL, 2*time.Second, logger)
	}
	log.Printf("ferretdb: listening on %s", *listen)
	if err := f.Run(ctx); err != nil {
		log.Fatalf("ferretdb: %v", err)
	}
}
