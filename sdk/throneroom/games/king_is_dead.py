"""The King Is Dead for clients: names and texts in English, Spanish and
Portuguese, and sentences for moves and events.

Names follow the rulebooks' own wording (regions as printed on the map; the
cards as the English, Spanish and Portuguese rulebooks call them)::

    >>> region_name(pb.REGION_CALEDONIA, "pt")
    'Caledônia'
    >>> card_name(pb.ACTION_CARD_GARRISON, "es")
    'Guarnición'
    >>> describe_move(KingIsDeadMove(play_card=KingIsDeadMove.PlayCard(card=2)))
    'Play the Garrison card'

Languages are ``"en"``, ``"es"`` and ``"pt"``; an unknown language falls back to
English. This module needs only the generated messages (never the server).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from throneroom.v1 import king_is_dead_pb2 as pb
from throneroom.v1.king_is_dead_pb2 import KingIsDeadEvent, KingIsDeadMove

__all__ = [
    "CARDS",
    "COLOURS",
    "EVENT_KINDS",
    "FACTIONS",
    "LANGUAGES",
    "REGIONS",
    "TERMINATIONS",
    "TIEBREAKS",
    "Text",
    "card_name",
    "card_text",
    "colour_name",
    "describe_event",
    "describe_move",
    "event_kind_name",
    "faction_name",
    "region_name",
]

LANGUAGES = ("en", "es", "pt")


@dataclass(frozen=True)
class Text:
    """A name and a short description in one language."""

    name: str
    description: str


Texts = Mapping[str, Text]
"""Language -> Text."""


def _t(en: tuple[str, str], es: tuple[str, str], pt: tuple[str, str]) -> Texts:
    return {"en": Text(*en), "es": Text(*es), "pt": Text(*pt)}


# --- regions ------------------------------------------------------------------------------

_BANNER_AQS = (
    "Resolving it adds a black Loyalist follower to Aquae Sulis (Mordred variant).",
    "Al resolverla se añade un seguidor negro leal a Mordred en Aquae Sulis (variante Mordred).",
    "Ao resolvê-la, um Seguidor Lealista preto é colocado em Aquae Sulis (Variante Mordred).",
)
_BANNER_DIN = (
    "Resolving it adds a black Loyalist follower to Din Eidyn (Mordred variant).",
    "Al resolverla se añade un seguidor negro leal a Mordred en Din Eidyn (variante Mordred).",
    "Ao resolvê-la, um Seguidor Lealista preto é colocado em Din Eidyn (Variante Mordred).",
)
_START_BLACK = (
    "It starts with one black Loyalist follower in the Mordred variant.",
    "Empieza con un seguidor negro leal a Mordred en la variante Mordred.",
    "Começa com um Seguidor Lealista preto na Variante Mordred.",
)


def _region(
    names: tuple[str, str, str], intro: tuple[str, str, str], banner: tuple[str, str, str]
) -> Texts:
    return {
        lang: Text(name, f"{pre}{' ' if pre else ''}{flag}".strip())
        for lang, name, pre, flag in zip(LANGUAGES, names, intro, banner, strict=True)
    }


_NO_INTRO = ("", "", "")
REGIONS: Mapping[int, Texts] = {
    pb.REGION_CALEDONIA: _region(
        ("Caledonia", "Caledonia", "Caledônia"),
        (
            "Home region of the Scots (blue).",
            "Región de origen de los escoceses (azul).",
            "Região natal dos Escoceses (azul).",
        ),
        _BANNER_AQS,
    ),
    pb.REGION_DIN_EIDYN: _region(
        ("Din Eidyn", "Din Eidyn", "Din Eidyn"),
        _START_BLACK,
        _BANNER_AQS,
    ),
    pb.REGION_DEVA: _region(("Deva", "Deva", "Deva"), _NO_INTRO, _BANNER_AQS),
    pb.REGION_EBORACUM: _region(("Eboracum", "Eboracum", "Eboracum"), _NO_INTRO, _BANNER_DIN),
    pb.REGION_CAERLEON: _region(
        ("Caerleon", "Caerleon", "Caerleon"),
        (
            "Home region of the Welsh (red).",
            "Región de origen de los galeses (rojo).",
            "Região natal dos Galeses (vermelho).",
        ),
        _BANNER_DIN,
    ),
    pb.REGION_RATAE: _region(("Ratae", "Ratae", "Ratae"), _NO_INTRO, _BANNER_AQS),
    pb.REGION_LONDINIUM: _region(
        ("Londinium", "Londinium", "Londinium"),
        (
            "Home region of the Romano-British (yellow).",
            "Región de origen de los romano-británicos (amarillo).",
            "Região natal dos Romano-Britânicos (amarelo).",
        ),
        _BANNER_DIN,
    ),
    pb.REGION_AQUAE_SULIS: _region(
        ("Aquae Sulis", "Aquae Sulis", "Aquae Sulis"),
        _START_BLACK,
        _BANNER_DIN,
    ),
}

# --- factions and colours ------------------------------------------------------------------

FACTIONS: Mapping[int, Texts] = {
    pb.FACTION_SCOTS: _t(
        ("Scots", "Blue followers; home region Caledonia."),
        ("Escoceses", "Seguidores azules; región de origen Caledonia."),
        ("Escoceses", "Seguidores azuis; região natal Caledônia."),
    ),
    pb.FACTION_WELSH: _t(
        ("Welsh", "Red followers; home region Caerleon."),
        ("Galeses", "Seguidores rojos; región de origen Caerleon."),
        ("Galeses", "Seguidores vermelhos; região natal Caerleon."),
    ),
    pb.FACTION_ROMANO_BRITISH: _t(
        ("Romano-British", "Yellow followers; home region Londinium."),
        ("Romano-británicos", "Seguidores amarillos; región de origen Londinium."),
        ("Romano-Britânicos", "Seguidores amarelos; região natal Londinium."),
    ),
    pb.FACTION_LOYALISTS: _t(
        (
            "Loyalists",
            "Mordred's black followers (Mordred variant): never summoned or placed by "
            "players, but exchanged, and they can win a region, which ends the game.",
        ),
        (
            "Leales a Mordred",
            "Seguidores negros de Mordred (variante Mordred): nunca se convocan ni se "
            "colocan, pero se intercambian, y si ganan una región el juego termina.",
        ),
        (
            "Lealistas",
            "Seguidores pretos de Mordred (Variante Mordred): nunca convocados nem colocados "
            "pelos jogadores, mas trocados, e se vencerem uma região o jogo termina.",
        ),
    ),
}
SAXONS: Texts = _t(
    ("Saxons", "Invaders: a power struggle tied or empty falls to them; 4 tokens end the game."),
    (
        "Sajones",
        "Invasores: una lucha empatada o vacía cae en sus manos; 4 fichas acaban el juego.",
    ),
    ("Saxões", "Invasores: uma luta empatada ou vazia cai para eles; 4 tokens terminam o jogo."),
)
COLOURS: Mapping[int, Mapping[str, str]] = {
    pb.FACTION_SCOTS: {"en": "blue", "es": "azul", "pt": "azul"},
    pb.FACTION_WELSH: {"en": "red", "es": "rojo", "pt": "vermelho"},
    pb.FACTION_ROMANO_BRITISH: {"en": "yellow", "es": "amarillo", "pt": "amarelo"},
    pb.FACTION_LOYALISTS: {"en": "black", "es": "negro", "pt": "preto"},
}

# --- action cards ------------------------------------------------------------------------------

CARDS: Mapping[int, Texts] = {
    pb.ACTION_CARD_CROWN: _t(
        (
            "Crown",
            "Swap the position of any two face-up Region Cards, including the one currently "
            "being contested if you wish, and place your Crown Token on one of them. A card "
            "with a Crown Token on it cannot be swapped.",
        ),
        (
            "Corona",
            "Intercambia la posición de dos Cartas de Región boca arriba, incluida la de la "
            "lucha de poder actual si quieres, y coloca tu ficha de corona en una de ellas. "
            "Una carta con una ficha de corona no se puede intercambiar.",
        ),
        (
            "Coroa",
            "O jogador troca a posição de quaisquer duas Cartas de Região viradas para cima, "
            "incluindo a que está sendo disputada atualmente, se desejar, e coloca seu Token de "
            "Coroa em uma delas. Qualquer carta com um Token de Coroa não pode ser trocada.",
        ),
    ),
    pb.ACTION_CARD_GARRISON: _t(
        (
            "Garrison",
            "Exchange 2 Followers from 1 region with 1 Follower from a bordering region. You "
            "cannot immediately undo a swap made by the previous player.",
        ),
        (
            "Guarnición",
            "Intercambia 2 Seguidores de una región por 1 Seguidor de una región adyacente. No "
            "se puede deshacer de inmediato un intercambio hecho por el jugador anterior.",
        ),
        (
            "Guarnição",
            "O jogador troca 2 Seguidores em 1 região por 1 Seguidor de uma região adjacente. "
            "O jogador não pode usar esta ação para desfazer imediatamente uma troca feita pelo "
            "jogador anterior.",
        ),
    ),
    pb.ACTION_CARD_AMBASSADOR: _t(
        (
            "Ambassador",
            "1 Follower from 1 region is exchanged with 1 Follower from any other region. You "
            "cannot immediately undo a swap made by the previous player.",
        ),
        (
            "Embajador",
            "1 Seguidor de una región se intercambia por 1 Seguidor de cualquier otra región. "
            "No se puede deshacer de inmediato un intercambio hecho por el jugador anterior.",
        ),
        (
            "Embaixador",
            "1 Seguidor de 1 região é trocado por 1 Seguidor de qualquer outra região. O "
            "jogador não pode usar esta ação para desfazer imediatamente uma troca feita pelo "
            "jogador anterior.",
        ),
    ),
    pb.ACTION_CARD_SETTLERS: _t(
        (
            "Settlers",
            "Move 1 Follower of each faction from the common supply to the board, each to any "
            "unresolved region. A faction missing from the supply gives no other Follower.",
        ),
        (
            "Asentamiento",
            "Mueve 1 Seguidor de cada facción de la reserva común al tablero, cada uno a "
            "cualquier región sin resolver. Si falta una facción en la reserva, no se recibe "
            "otro Seguidor a cambio.",
        ),
        (
            "Assentamentos",
            "O jogador move 1 Seguidor de cada facção do estoque comum para o tabuleiro. Cada "
            "Seguidor pode ser colocado em qualquer região não resolvida.",
        ),
    ),
    pb.ACTION_CARD_SCOTS: _t(
        (
            "Scots",
            "Place 2 blue Followers from the common supply in regions adjacent to a region "
            "controlled by the Scots (Caledonia counts until it is resolved).",
        ),
        (
            "Escoceses",
            "Coloca 2 Seguidores azules de la reserva común en regiones adyacentes a una "
            "región controlada por los escoceses (Caledonia cuenta mientras no se resuelva).",
        ),
        (
            "Escoceses",
            "O jogador coloca 2 Seguidores azuis do estoque comum em regiões que são adjacentes "
            "a uma região controlada pelos Escoceses (Caledônia conta enquanto não resolvida).",
        ),
    ),
    pb.ACTION_CARD_WELSH: _t(
        (
            "Welsh",
            "Place 2 red Followers from the common supply in regions adjacent to a region "
            "controlled by the Welsh (Caerleon counts until it is resolved).",
        ),
        (
            "Galeses",
            "Coloca 2 Seguidores rojos de la reserva común en regiones adyacentes a una región "
            "controlada por los galeses (Caerleon cuenta mientras no se resuelva).",
        ),
        (
            "Galeses",
            "O jogador coloca 2 Seguidores vermelhos do estoque comum em regiões adjacentes a "
            "uma região controlada pelos Galeses (Caerleon conta enquanto não resolvida).",
        ),
    ),
    pb.ACTION_CARD_ROMANO_BRITISH: _t(
        (
            "Romano-British",
            "Place 2 yellow Followers from the common supply in regions adjacent to a region "
            "controlled by the Romano-British (Londinium counts until it is resolved).",
        ),
        (
            "Romano-británicos",
            "Coloca 2 Seguidores amarillos de la reserva común en regiones adyacentes a una "
            "región controlada por los romano-británicos (Londinium cuenta mientras no se "
            "resuelva).",
        ),
        (
            "Romano-Britânicos",
            "O jogador coloca 2 Seguidores amarelos do estoque comum em regiões adjacentes a "
            "uma região controlada pelos Romano-Britânicos (Londinium conta enquanto não "
            "resolvida).",
        ),
    ),
}

# --- events, endings, tie-breaks ------------------------------------------------------------

EVENT_KINDS: Mapping[str, Texts] = {
    "setup": _t(
        ("Setup", "Courts drawn, regions filled, region cards laid out."),
        ("Preparación", "Cortes extraídas, regiones llenas, cartas de región dispuestas."),
        ("Preparação", "Cortes compradas, regiões preenchidas, cartas de região dispostas."),
    ),
    "card_played": _t(
        ("Card played", "A player played an action card, face up."),
        ("Carta jugada", "Un jugador jugó una carta de acción boca arriba."),
        ("Carta jogada", "Um jogador jogou uma carta de ação virada para cima."),
    ),
    "effect_skipped": _t(
        ("No effect", "The card's action could not be carried out at all."),
        ("Sin efecto", "La acción de la carta no se pudo realizar."),
        ("Sem efeito", "A ação da carta não pôde ser realizada."),
    ),
    "followers_moved": _t(
        ("Followers moved", "Followers moved between two regions (Garrison, Ambassador)."),
        ("Seguidores movidos", "Seguidores movidos entre dos regiones (Guarnición, Embajador)."),
        ("Seguidores movidos", "Seguidores movidos entre duas regiões (Guarnição, Embaixador)."),
    ),
    "follower_placed": _t(
        ("Follower placed", "A follower went from the common supply to a region."),
        ("Seguidor colocado", "Un seguidor pasó de la reserva común a una región."),
        ("Seguidor colocado", "Um seguidor foi do estoque comum para uma região."),
    ),
    "crown_placed": _t(
        ("Crown placed", "Two region cards swapped places; a crown token was placed."),
        ("Corona colocada", "Dos cartas de región cambiaron de lugar; se colocó una corona."),
        ("Coroa colocada", "Duas cartas de região trocaram de lugar; um token de coroa foi posto."),
    ),
    "follower_summoned": _t(
        ("Follower summoned", "A follower was summoned from a region to a player's court."),
        ("Seguidor convocado", "Un seguidor fue convocado de una región a la corte."),
        ("Seguidor convocado", "Um seguidor foi convocado de uma região para a corte."),
    ),
    "summon_skipped": _t(
        ("No summon", "No follower could be summoned to court."),
        ("Sin convocatoria", "No se pudo convocar a ningún seguidor."),
        ("Sem convocação", "Nenhum seguidor pôde ser convocado."),
    ),
    "passed": _t(
        ("Pass", "A player passed this turn."),
        ("Pase", "Un jugador pasó en este turno."),
        ("Passe", "Um jogador passou neste turno."),
    ),
    "struggle_resolved": _t(
        ("Power struggle resolved", "A region's power struggle ended and its control was set."),
        ("Lucha de poder resuelta", "Terminó la lucha de poder de una región."),
        ("Luta pelo poder resolvida", "A luta pelo poder de uma região terminou."),
    ),
    "game_ended": _t(
        ("Game over", "The game ended and the winner was determined."),
        ("Fin del juego", "El juego terminó y se determinó el ganador."),
        ("Fim de jogo", "O jogo terminou e o vencedor foi determinado."),
    ),
}
TERMINATIONS: Mapping[str, Mapping[str, str]] = {
    "control": {"en": "Control", "es": "Control", "pt": "Controle"},
    "invasion": {"en": "Invasion", "es": "Invasión", "pt": "Invasão"},
    "loyalist": {"en": "Mordred's Loyalists", "es": "Leales a Mordred", "pt": "Lealistas"},
}
TIEBREAKS: Mapping[str, Mapping[str, str]] = {
    "faction_recency": {
        "en": "the tied faction that won a power struggle most recently rules",
        "es": "gobierna la facción empatada que ganó más recientemente una lucha de poder",
        "pt": "governa a facção empatada que mais recentemente venceu uma luta pelo poder",
    },
    "second_faction": {
        "en": "the faction second in regions decided",
        "es": "decidió la facción con la siguiente mayor cantidad de regiones",
        "pt": "decidiu a facção com o próximo maior número de regiões",
    },
    "second_faction_recency": {
        "en": "the second faction was chosen by the most recent win",
        "es": "la segunda facción se eligió por la victoria más reciente",
        "pt": "a segunda facção foi escolhida pela vitória mais recente",
    },
    "last_card_played": {
        "en": "who played an action card last",
        "es": "quién jugó una carta de acción por última vez",
        "pt": "quem jogou uma carta de ação por último",
    },
    "court_total": {
        "en": "the most followers at court",
        "es": "el mayor número total de seguidores en la corte",
        "pt": "o maior número total de seguidores na corte",
    },
}


# --- lookups ---------------------------------------------------------------------------------


def _lang(lang: str) -> str:
    return lang if lang in LANGUAGES else "en"


def region_name(region: int, lang: str = "en") -> str:
    texts = REGIONS.get(region)
    return texts[_lang(lang)].name if texts else f"region {region}"


def faction_name(faction: int, lang: str = "en") -> str:
    texts = FACTIONS.get(faction)
    return texts[_lang(lang)].name if texts else f"faction {faction}"


def colour_name(faction: int, lang: str = "en") -> str:
    names = COLOURS.get(faction)
    return names[_lang(lang)] if names else f"colour {faction}"


def card_name(card: int, lang: str = "en") -> str:
    texts = CARDS.get(card)
    return texts[_lang(lang)].name if texts else f"card {card}"


def card_text(card: int, lang: str = "en") -> str:
    texts = CARDS.get(card)
    return texts[_lang(lang)].description if texts else ""


def event_kind_name(kind: str, lang: str = "en") -> str:
    texts = EVENT_KINDS.get(kind)
    return texts[_lang(lang)].name if texts else kind


def _control_name(control: int, lang: str) -> str:
    if control == pb.REGION_CONTROL_SAXONS:
        return SAXONS[_lang(lang)].name
    return faction_name(control, lang)


# --- sentences ---------------------------------------------------------------------------------

_AND = {"en": "and", "es": "y", "pt": "e"}
_SEAT = {"en": "Seat", "es": "Asiento", "pt": "Assento"}


def _join(items: Sequence[str], lang: str) -> str:
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + f" {_AND[lang]} " + items[-1]


def _factions(factions: Sequence[int], lang: str) -> str:
    return _join([faction_name(f, lang) for f in factions], lang)


def _seat(seat: int, lang: str) -> str:
    return f"{_SEAT[lang]} {seat}"


def describe_move(move: KingIsDeadMove, lang: str = "en") -> str:
    """A short sentence for a decision, e.g. 'Play the Garrison card'."""
    lang = _lang(lang)
    kind = move.WhichOneof("decision")
    if kind == "pass_turn":
        return {"en": "Pass", "es": "Pasar", "pt": "Passar"}[lang]
    if kind == "play_card":
        name = card_name(move.play_card.card, lang)
        return {
            "en": f"Play the {name} card",
            "es": f"Jugar la carta {name}",
            "pt": f"Jogar a carta {name}",
        }[lang]
    if kind == "crown":
        c = move.crown
        a, b = region_name(c.region_a, lang), region_name(c.region_b, lang)
        crowned = region_name(c.crowned, lang)
        return {
            "en": f"Crown: swap {a} and {b}, crown token on {crowned}",
            "es": f"Corona: intercambiar {a} y {b}, ficha de corona en {crowned}",
            "pt": f"Coroa: trocar {a} e {b}, token de coroa em {crowned}",
        }[lang]
    if kind == "garrison":
        g = move.garrison
        a, b = region_name(g.from_region, lang), region_name(g.to_region, lang)
        out = _factions(list(g.outgoing), lang)
        text = {
            "en": f"Garrison: {out} from {a} to {b}",
            "es": f"Guarnición: {out} de {a} a {b}",
            "pt": f"Guarnição: {out} de {a} para {b}",
        }[lang]
        if g.HasField("returning"):
            back = faction_name(g.returning, lang)
            text += {
                "en": f", {back} back to {a}",
                "es": f", {back} de vuelta a {a}",
                "pt": f", {back} de volta para {a}",
            }[lang]
        return text
    if kind == "ambassador":
        m = move.ambassador
        a, b = region_name(m.region_a, lang), region_name(m.region_b, lang)
        if m.HasField("from_a") and m.HasField("from_b"):
            fa, fb = faction_name(m.from_a, lang), faction_name(m.from_b, lang)
            return {
                "en": f"Ambassador: {fa} from {a} for {fb} from {b}",
                "es": f"Embajador: {fa} de {a} por {fb} de {b}",
                "pt": f"Embaixador: {fa} de {a} por {fb} de {b}",
            }[lang]
        src, dst, who = (a, b, m.from_a) if m.HasField("from_a") else (b, a, m.from_b)
        f = faction_name(who, lang)
        return {
            "en": f"Ambassador: {f} from {src} to {dst}, exchanged with nothing",
            "es": f"Embajador: {f} de {src} a {dst}, intercambiado por nada",
            "pt": f"Embaixador: {f} de {src} para {dst}, trocado por nada",
        }[lang]
    if kind == "settle":
        r = region_name(move.settle.region, lang)
        return {
            "en": f"Settlers: place the follower in {r}",
            "es": f"Asentamiento: colocar el seguidor en {r}",
            "pt": f"Assentamentos: colocar o seguidor em {r}",
        }[lang]
    if kind == "place":
        r = region_name(move.place.region, lang)
        return {
            "en": f"Place a follower in {r}",
            "es": f"Colocar un seguidor en {r}",
            "pt": f"Colocar um seguidor em {r}",
        }[lang]
    if kind == "summon":
        r = region_name(move.summon.region, lang)
        f = faction_name(move.summon.faction, lang)
        return {
            "en": f"Summon a {f} follower from {r} to court",
            "es": f"Convocar a la corte un seguidor {f} de {r}",
            "pt": f"Convocar para a corte um seguidor {f} de {r}",
        }[lang]
    return {"en": "An empty move", "es": "Un movimiento vacío", "pt": "Um movimento vazio"}[lang]


def describe_event(event: KingIsDeadEvent, lang: str = "en") -> str:
    """A short sentence for an event, e.g. 'Seat 1 plays Garrison (5 cards left).'"""
    lang = _lang(lang)
    kind = event.WhichOneof("kind")
    if kind == "setup":
        setup = event.setup
        order = _join([region_name(r, lang) for r in setup.region_card_order], lang)
        n = setup.num_seats
        variant = {
            "en": " (Mordred variant)",
            "es": " (variante Mordred)",
            "pt": " (Variante Mordred)",
        }
        mordred = variant[lang] if setup.mordred else ""
        return {
            "en": f"The game is set up for {n} players{mordred}; "
            f"power struggles in order: {order}.",
            "es": f"Partida preparada para {n} jugadores{mordred}; "
            f"luchas de poder en orden: {order}.",
            "pt": f"Jogo preparado para {n} jogadores{mordred}; "
            f"lutas pelo poder em ordem: {order}.",
        }[lang]
    if kind == "card_played":
        played = event.card_played
        who, name, left = _seat(played.seat, lang), card_name(played.card, lang), played.cards_left
        return {
            "en": f"{who} plays {name} ({left} cards left).",
            "es": f"{who} juega {name} (le quedan {left} cartas).",
            "pt": f"{who} joga {name} (restam {left} cartas).",
        }[lang]
    if kind == "effect_skipped":
        skipped = event.effect_skipped
        name = card_name(skipped.card, lang)
        return {
            "en": f"{name} has no effect: its action cannot be carried out.",
            "es": f"{name} no tiene efecto: su acción no se puede realizar.",
            "pt": f"{name} não tem efeito: sua ação não pode ser realizada.",
        }[lang]
    if kind == "followers_moved":
        moved = event.followers_moved
        who = _factions(list(moved.followers), lang)
        a, b = region_name(moved.from_region, lang), region_name(moved.to_region, lang)
        return {
            "en": f"{card_name(moved.card, lang)}: {who} from {a} to {b}.",
            "es": f"{card_name(moved.card, lang)}: {who} de {a} a {b}.",
            "pt": f"{card_name(moved.card, lang)}: {who} de {a} para {b}.",
        }[lang]
    if kind == "follower_placed":
        placed = event.follower_placed
        f, r = faction_name(placed.faction, lang), region_name(placed.region, lang)
        return {
            "en": f"{card_name(placed.card, lang)}: a {f} follower is placed in {r}.",
            "es": f"{card_name(placed.card, lang)}: se coloca un seguidor {f} en {r}.",
            "pt": f"{card_name(placed.card, lang)}: um seguidor {f} é colocado em {r}.",
        }[lang]
    if kind == "crown_placed":
        crowned_ev = event.crown_placed
        who = _seat(crowned_ev.seat, lang)
        a, b = region_name(crowned_ev.region_a, lang), region_name(crowned_ev.region_b, lang)
        crowned = region_name(crowned_ev.crowned, lang)
        pa, pb_ = crowned_ev.position_a, crowned_ev.position_b
        return {
            "en": f"{who} swaps {a} (now position {pa}) and {b} (now position {pb_}) "
            f"and crowns {crowned}.",
            "es": f"{who} intercambia {a} (ahora posición {pa}) y {b} (ahora posición {pb_}) "
            f"y corona {crowned}.",
            "pt": f"{who} troca {a} (agora posição {pa}) e {b} (agora posição {pb_}) "
            f"e coroa {crowned}.",
        }[lang]
    if kind == "follower_summoned":
        summoned = event.follower_summoned
        who, f, r = (
            _seat(summoned.seat, lang),
            faction_name(summoned.faction, lang),
            region_name(summoned.region, lang),
        )
        return {
            "en": f"{who} summons a {f} follower from {r} to court.",
            "es": f"{who} convoca a la corte un seguidor {f} de {r}.",
            "pt": f"{who} convoca para a corte um seguidor {f} de {r}.",
        }[lang]
    if kind == "summon_skipped":
        who = _seat(event.summon_skipped.seat, lang)
        return {
            "en": f"{who} has no follower to summon.",
            "es": f"{who} no tiene ningún seguidor que convocar.",
            "pt": f"{who} não tem nenhum seguidor para convocar.",
        }[lang]
    if kind == "passed":
        passed = event.passed
        who, n = _seat(passed.seat, lang), passed.consecutive_passes
        if passed.forced:
            return {
                "en": f"{who} has no cards left and passes ({n} in a row).",
                "es": f"{who} no tiene cartas y pasa ({n} seguidos).",
                "pt": f"{who} não tem cartas e passa ({n} seguidos).",
            }[lang]
        return {
            "en": f"{who} passes ({n} in a row).",
            "es": f"{who} pasa ({n} seguidos).",
            "pt": f"{who} passa ({n} seguidos).",
        }[lang]
    if kind == "struggle_resolved":
        resolved = event.struggle_resolved
        r, who = region_name(resolved.region, lang), _control_name(resolved.control, lang)
        text = {
            "en": f"Power struggle {resolved.order}, {r}: the {who} take control "
            f"({resolved.saxon_tokens} Saxon tokens on the board).",
            "es": f"Lucha de poder {resolved.order}, {r}: los {who} toman el control "
            f"({resolved.saxon_tokens} fichas sajonas en el tablero).",
            "pt": f"Luta pelo poder {resolved.order}, {r}: os {who} assumem o controle "
            f"({resolved.saxon_tokens} tokens saxões no tabuleiro).",
        }[lang]
        if resolved.HasField("banner_region"):
            b = region_name(resolved.banner_region, lang)
            text += {
                "en": f" A Loyalist follower goes to {b}.",
                "es": f" Un seguidor leal a Mordred va a {b}.",
                "pt": f" Um Seguidor Lealista vai para {b}.",
            }[lang]
        return text
    if kind == "game_ended":
        ended = event.game_ended
        how = TERMINATIONS.get(ended.termination, {}).get(lang, ended.termination)
        winners = _join([_seat(w, lang) for w in ended.winners], lang)
        text = {
            "en": f"Game over ({how}): {winners} won",
            "es": f"Fin del juego ({how}): ganó {winners}",
            "pt": f"Fim de jogo ({how}): {winners} venceu",
        }[lang]
        if ended.ruling_faction:
            f = faction_name(ended.ruling_faction, lang)
            text += {
                "en": f"; the {f} rule",
                "es": f"; gobiernan los {f}",
                "pt": f"; governam os {f}",
            }[lang]
        if ended.tiebreaks:
            ties = _join([TIEBREAKS.get(t, {}).get(lang, t) for t in ended.tiebreaks], lang)
            text += {
                "en": f" (tie-breaks: {ties})",
                "es": f" (desempates: {ties})",
                "pt": f" (desempates: {ties})",
            }[lang]
        return text + "."
    return {"en": "Nothing happened.", "es": "No pasó nada.", "pt": "Nada aconteceu."}[lang]
