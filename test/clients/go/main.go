// Command go-client drives github.com/kristofferahl/go-healthchecksio/v2, the
// client the Terraform healthchecksio provider uses, unchanged, against a live
// hc-monitor. It runs every call the client has (create, list, update, pause,
// delete, list channels) the way the provider does, and prints one JSON object
// per step on stdout for the mocha test (test/clients/go-client.test.ts). The
// first failing step ends the run with exit status 1 and the error on stderr.
//
// Usage: go-client -base-url http://127.0.0.1:PORT/api/v1 -api-key KEY
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"log"
	"os"

	healthchecksio "github.com/kristofferahl/go-healthchecksio/v2"
)

func emit(step string, fields map[string]any) {
	fields["step"] = step
	line, err := json.Marshal(fields)
	if err != nil {
		fail(step, err)
	}
	fmt.Println(string(line))
}

func fail(step string, err error) {
	fmt.Fprintf(os.Stderr, "%s: %v\n", step, err)
	os.Exit(1)
}

func check(step string, err error) {
	if err != nil {
		fail(step, err)
	}
}

func names(checks []*healthchecksio.HealthcheckResponse) []string {
	out := []string{}
	for _, check := range checks {
		out = append(out, check.Name)
	}
	return out
}

func main() {
	baseURL := flag.String("base-url", "", "API root including the version, e.g. http://127.0.0.1:8000/api/v1")
	apiKey := flag.String("api-key", "", "read-write API key")
	flag.Parse()
	// The client logs each request at [DEBUG] through the standard logger; keep stdout for results.
	log.SetOutput(io.Discard)

	client := healthchecksio.NewClient(*apiKey)
	client.BaseURL = *baseURL

	channels, err := client.GetAllChannels()
	check("get_all_channels", err)
	emit("get_all_channels", map[string]any{"channels": channels})

	simple := healthchecksio.Healthcheck{
		Name: "Terraform Simple", Tags: "tf prod", Description: "managed", Timeout: 600, Grace: 120,
		Channels: "*", Unique: []string{"name"},
	}
	created, err := client.Create(simple)
	check("create", err)
	emit("create", map[string]any{"check": created, "id": created.ID()})
	upserted, err := client.Create(simple)
	check("create_upsert", err)
	emit("create_upsert", map[string]any{"check": upserted, "id": upserted.ID()})

	cron := healthchecksio.Healthcheck{
		Name: "Terraform Cron", Slug: "tf-cron", Schedule: "0 3 * * 1-5", Timezone: "America/New_York", Grace: 3600,
	}
	cronCheck, err := client.Create(cron)
	check("create_cron", err)
	emit("create_cron", map[string]any{"check": cronCheck, "id": cronCheck.ID()})

	all, err := client.GetAll()
	check("get_all", err)
	emit("get_all", map[string]any{"names": names(all)})

	simple.Description = "updated"
	simple.Grace = 300
	simple.Channels = ""
	updated, err := client.Update(created.ID(), simple)
	check("update", err)
	emit("update", map[string]any{"check": updated, "id": updated.ID()})

	paused, err := client.Pause(cronCheck.ID())
	check("pause", err)
	emit("pause", map[string]any{"check": paused})

	deleted, err := client.Delete(cronCheck.ID())
	check("delete", err)
	emit("delete", map[string]any{"check": deleted, "id": deleted.ID()})

	_, err = client.Delete(cronCheck.ID())
	if err == nil {
		fail("delete_again", fmt.Errorf("deleting a deleted check succeeded"))
	}
	emit("delete_again", map[string]any{"error": err.Error()})

	_, err = client.Create(healthchecksio.Healthcheck{Name: "bad", Timeout: 40000000})
	if err == nil {
		fail("create_invalid", fmt.Errorf("an invalid check was created"))
	}
	emit("create_invalid", map[string]any{"error": err.Error()})
	emit("done", map[string]any{"simple": created.ID()})
}
