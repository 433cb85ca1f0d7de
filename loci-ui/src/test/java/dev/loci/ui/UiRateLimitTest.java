package dev.loci.ui;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loci.server.ServerConfig;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The server's rate limit covers the UI too, so guessing tokens at the login form is throttled. */
class UiRateLimitTest {
  @TempDir Path dir;

  @Test
  void loginAttempts_overTheRateLimit_429() throws Exception {
    ServerConfig limited =
        ServerConfig.defaults().withRateLimit(new ServerConfig.RateLimit(0.1, 4));
    try (UiFixture ui = new UiFixture(dir, true, limited)) {
      HttpResponse<String> form = ui.get("/ui/login", "");
      String cookie = UiFixture.cookie(form);
      String csrf = UiFixture.csrf(form.body());
      List<Integer> statuses = new ArrayList<>();
      for (int i = 0; i < 6; i++) {
        statuses.add(
            ui.post("/ui/login", cookie, Map.of("_csrf", csrf, "token", "guess-" + i))
                .statusCode());
      }
      assertThat(statuses).contains(401).endsWith(429);
    }
  }
}
