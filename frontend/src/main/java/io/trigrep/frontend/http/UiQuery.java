package io.trigrep.frontend.http;

import java.util.List;

/** What a results page shows: the query, its mode, the view and the page (from 1, as people count). */
record UiQuery(String query, boolean literal, String view, int page) {
    static final List<String> VIEWS = List.of("rank", "packages", "list");

    String href(String view, int page) {
        return "/search?q=" + Html.url(query) + (literal ? "&mode=literal" : "")
                + (view.equals("rank") ? "" : "&view=" + view) + (page > 1 ? "&page=" + page : "");
    }

    /** The same query narrowed to one package: {@code package:} takes a regex, so the name is quoted. */
    UiQuery inPackage(String pkg) {
        StringBuilder quoted = new StringBuilder("^");
        for (int i = 0; i < pkg.length(); i++) {
            char c = pkg.charAt(i);
            if ("\\.+*?()|[]{}^$".indexOf(c) >= 0) {
                quoted.append('\\');
            }
            quoted.append(c);
        }
        return new UiQuery(query + " package:" + quoted + "$", literal, "rank", 1);
    }

    String apiParameters() {
        return "q=" + Html.url(query) + "&match_mode=" + (literal ? "literal" : "regexp");
    }
}
