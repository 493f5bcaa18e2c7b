"""The search page, ``/search/?q=&kind=&page=``: without a kind, the first hits of each kind
(clubs, events, players) with a link to all of them; with one, that kind's hits a page at a
time. A blank or malformed query shows its error beside the field (answered 400)."""

from __future__ import annotations

from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from common.errors import DomainError

from .query import KINDS, Q_MAX, kind_read, page_read, terms_read
from .selectors import COUNT_MAX, PAGE_SIZE, Hit, SearchHits, search_groups

GROUP_SIZE = 5


def search_page(request: HttpRequest) -> HttpResponse:
    raw = request.GET.get("q")
    context: dict[str, object] = {"q": raw or "", "kind": request.GET.get("kind", ""),
                               "kinds": KINDS, "q_max": Q_MAX, "count_max": COUNT_MAX}
    if raw is None:  # the empty form
        return render(request, "search/search.html", context)
    try:
        terms = terms_read(raw)
        kind = kind_read(request.GET.get("kind"))
        page = page_read(request.GET.get("page"))
    except DomainError as error:
        context["error"] = error
        return render(request, "search/search.html", context, status=400)
    context.update(kind=kind, terms=terms)
    if kind:
        paginator: Paginator[Hit] = Paginator(SearchHits(terms, kind), PAGE_SIZE)  # type: ignore[arg-type]
        context["page_obj"] = paginator.get_page(page)
    else:
        context["groups"] = search_groups(terms=terms, size=GROUP_SIZE)
    return render(request, "search/search.html", context)
