package dev.loci.ui.internal;

import dev.loci.Namespace;
import dev.loci.Page;
import dev.loci.Trace;
import dev.loci.TraceQuery;
import dev.loci.Traces;
import dev.loci.server.Role;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Optional;

/**
 * Traces: a search by tag, text and creation time (results update in place through htmx), and one
 * trace with its version chain and a diff between two versions. The chain holds superseded
 * versions, which may carry personal data, so as on the API only a {@code legal} credential sees
 * it, and each such read is recorded.
 */
public final class TracePages {
  /** The page size of a search. */
  static final int PAGE = 50;

  /**
   * A search and its results.
   *
   * @param ns the namespace searched
   * @param tag the tag filter as typed
   * @param text the text filter as typed
   * @param from the earliest creation date as typed (yyyy-mm-dd)
   * @param to the latest creation date as typed (yyyy-mm-dd)
   * @param retired whether retired traces are included
   * @param results the page of results
   * @param total traces in the namespace
   */
  public record Search(
      Namespace ns,
      String tag,
      String text,
      String from,
      String to,
      boolean retired,
      Page<Trace> results,
      long total) {
    /** The query string of the next page, if there is one. */
    public Optional<String> nextQuery() {
      return results
          .nextCursor()
          .map(
              c ->
                  "tag="
                      + Html.url(tag)
                      + "&q="
                      + Html.url(text)
                      + "&from="
                      + Html.url(from)
                      + "&to="
                      + Html.url(to)
                      + (retired ? "&retired=on" : "")
                      + "&cursor="
                      + Html.url(c));
    }
  }

  /**
   * One trace.
   *
   * @param trace the version asked for
   * @param chain its version chain, newest first, when the viewer may read it
   * @param chainHidden why the chain is not shown, when it is not
   * @param older the uid of the older side of the diff shown
   * @param newer the uid of the newer side of the diff shown
   * @param diff the diff shown, empty when fewer than two versions
   */
  public record Detail(
      Trace trace,
      List<Trace> chain,
      Optional<String> chainHidden,
      String older,
      String newer,
      List<VersionDiff.Line> diff) {
    /** The trace's content, pretty-printed. */
    public String pretty() {
      return VersionDiff.pretty(trace.content());
    }
  }

  private final Web web;
  private final Traces traces;

  /** The pages over {@code traces}. */
  public TracePages(Web web, Traces traces) {
    this.web = web;
    this.traces = traces;
  }

  /** Registers {@code /ui/ns/{ns}/traces} and {@code /ui/ns/{ns}/traces/{uid}}. */
  public void register() {
    web.get("/ui/ns/{ns}/traces", Role.READER, this::search);
    web.get("/ui/ns/{ns}/traces/{uid}", Role.READER, this::detail);
  }

  private void search(Req req) {
    Namespace ns = req.ns();
    String tag = req.query("tag").orElse("");
    String text = req.query("q").orElse("");
    String from = req.query("from").orElse("");
    String to = req.query("to").orElse("");
    boolean retired = req.query("retired").isPresent();
    TraceQuery.Builder q = TraceQuery.in(ns).limit(PAGE).includeRetired(retired);
    for (String t : tag.split(",")) {
      if (!t.isBlank()) {
        q.tag(t.strip());
      }
    }
    if (!text.isEmpty()) {
      q.contentContains(text);
    }
    date("from", from).ifPresent(q::createdFrom);
    date("to", to).map(d -> d.plusSeconds(86_400)).ifPresent(q::createdBefore);
    req.query("cursor").ifPresent(q::cursor);
    Search s =
        new Search(
            ns,
            tag,
            text,
            from,
            to,
            retired,
            traces.search(q.build()),
            traces.count(dev.loci.NamespaceScope.exactly(ns)));
    if (req.htmx() && req.query("partial").isPresent()) {
      req.fragment("trace-results.jte", s);
    } else {
      req.page("traces.jte", req.chrome("Traces · " + ns, "traces", Optional.of(ns)), s);
    }
  }

  private static Optional<Instant> date(String field, String text) {
    if (text.isEmpty()) {
      return Optional.empty();
    }
    try {
      return Optional.of(LocalDate.parse(text).atStartOfDay().toInstant(ZoneOffset.UTC));
    } catch (DateTimeParseException e) {
      throw PageProblem.badField(field, "expected a date as yyyy-mm-dd, found '" + text + "'");
    }
  }

  private void detail(Req req) {
    Namespace ns = req.ns();
    Trace t = traces.get(ns, req.ctx().pathParam("uid"));
    List<Trace> chain = List.of(t);
    Optional<String> hidden = Optional.empty();
    if (req.viewer().legal().isPresent()) {
      chain = traces.history(ns, t.uid(), req.viewer().legal().get());
    } else if (t.predecessorUid().isPresent()) {
      hidden =
          Optional.of(
              "Older versions may carry personal data: only a legal credential sees the version"
                  + " chain (as on the API).");
    }
    String newer = req.query("newer").orElse(chain.get(0).uid());
    String older = req.query("older").orElse(chain.size() > 1 ? chain.get(1).uid() : newer);
    Trace n = find(chain, newer, "newer");
    Trace o = find(chain, older, "older");
    List<VersionDiff.Line> diff =
        chain.size() > 1 ? VersionDiff.of(o.content(), n.content()) : List.of();
    req.page(
        "trace.jte",
        req.chrome("Trace " + t.uid(), "traces", Optional.of(ns)),
        new Detail(t, chain, hidden, o.uid(), n.uid(), diff));
  }

  private static Trace find(List<Trace> chain, String uid, String field) {
    return chain.stream()
        .filter(v -> v.uid().equals(uid))
        .findFirst()
        .orElseThrow(
            () -> PageProblem.badField(field, "expected the uid of a version in this chain"));
  }
}
