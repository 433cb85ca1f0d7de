package dev.loci.ui.internal;

import io.javalin.http.Context;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;

/**
 * The scripts and styles pages load, read once from the class path (the htmx and Chart.js webjars,
 * the UI's own files) and served from memory under {@code /ui/assets/<name>}: nothing comes from a
 * CDN. Only the names listed in {@code assets.properties} are served, so no request can reach any
 * other resource. Immutable and thread-safe.
 */
public final class Assets {
  private record Asset(byte[] bytes, String type) {}

  private final Map<String, Asset> assets = new HashMap<>();

  /** Loads every listed asset. */
  public Assets() {
    Properties index = new Properties();
    try (InputStream in = Assets.class.getResourceAsStream("/dev/loci/ui/assets.properties")) {
      index.load(in);
      for (String name : index.stringPropertyNames()) {
        String path = index.getProperty(name);
        try (InputStream a = Assets.class.getResourceAsStream(path)) {
          if (a == null) {
            throw new IllegalStateException("UI asset " + name + " missing: " + path);
          }
          String type =
              name.endsWith(".css") ? "text/css; charset=utf-8" : "text/javascript; charset=utf-8";
          assets.put(name, new Asset(a.readAllBytes(), type));
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Serves asset {@code name}, or 404. */
  public void serve(Context ctx, String name) {
    Asset a = assets.get(name);
    if (a == null) {
      ctx.status(404).contentType("text/plain").result("no such asset");
      return;
    }
    ctx.header("Cache-Control", "public, max-age=3600");
    ctx.header("X-Content-Type-Options", "nosniff");
    ctx.contentType(a.type()).result(a.bytes());
  }
}
