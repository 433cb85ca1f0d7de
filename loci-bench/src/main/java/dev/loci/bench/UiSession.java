package dev.loci.bench;

import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Signs in to the web UI the way a browser does: the login form, its CSRF token, the cookie. */
final class UiSession {
  private static final Pattern CSRF = Pattern.compile("name=\"csrf-token\" content=\"([^\"]+)\"");

  private UiSession() {}

  /** The session cookie ({@code name=value}) of a session signed in with {@code token}. */
  static String login(HttpClient client, String root, String token)
      throws IOException, InterruptedException {
    HttpResponse<String> form =
        client.send(
            HttpRequest.newBuilder(URI.create(root + "/ui/login")).GET().build(),
            HttpResponse.BodyHandlers.ofString());
    Matcher m = CSRF.matcher(form.body());
    if (!m.find()) {
      throw new IllegalStateException("the login page has no CSRF token: " + form.statusCode());
    }
    String body =
        "_csrf="
            + URLEncoder.encode(m.group(1), StandardCharsets.UTF_8)
            + "&token="
            + URLEncoder.encode(token, StandardCharsets.UTF_8);
    HttpResponse<String> r =
        client.send(
            HttpRequest.newBuilder(URI.create(root + "/ui/login"))
                .header("Content-Type", "application/x-www-form-urlencoded")
                .header("Cookie", cookie(form))
                .POST(HttpRequest.BodyPublishers.ofString(body))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    if (r.statusCode() != 303) {
      throw new IllegalStateException("login refused: " + r.statusCode() + " " + r.body());
    }
    return cookie(r);
  }

  private static String cookie(HttpResponse<String> r) {
    String set =
        r.headers()
            .firstValue("Set-Cookie")
            .orElseThrow(() -> new IllegalStateException("no session cookie"));
    return set.substring(0, set.indexOf(';'));
  }
}
