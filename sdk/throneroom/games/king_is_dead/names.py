"""The King Is Dead for clients: names and short descriptions of regions,
factions, colours, action cards, event kinds, endings and tie-breaks, in
English, Spanish and Portuguese, with their lookups.

Names follow the rulebooks' own wording (regions as printed on the map; the
cards as the English, Spanish and Portuguese rulebooks call them). Import
them from :mod:`throneroom.games.king_is_dead`, which re-exports them. The
tables are keyed by the values of :mod:`throneroom.games.king_is_dead.data`,
and what the descriptions say of the map (homes, the Mordred banner and start)
is written from it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from throneroom.games.king_is_dead import data
from throneroom.games.king_is_dead.data import Faction, Region

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

_REGION_NAMES: Mapping[Region, tuple[str, str, str]] = {
    data.CALEDONIA: ("Caledonia", "Caledonia", "Caledônia"),
    data.DIN_EIDYN: ("Din Eidyn", "Din Eidyn", "Din Eidyn"),
    data.DEVA: ("Deva", "Deva", "Deva"),
    data.EBORACUM: ("Eboracum", "Eboracum", "Eboracum"),
    data.CAERLEON: ("Caerleon", "Caerleon", "Caerleon"),
    data.RATAE: ("Ratae", "Ratae", "Ratae"),
    data.LONDINIUM: ("Londinium", "Londinium", "Londinium"),
    data.AQUAE_SULIS: ("Aquae Sulis", "Aquae Sulis", "Aquae Sulis"),
}
"""Region -> its name in each of LANGUAGES, as printed on the map."""


def _banner(target: Region) -> tuple[str, str, str]:
    """What resolving a region adds to ``target`` (data.BANNER), in each language."""
    en, es, pt = _REGION_NAMES[target]
    return (
        f"Resolving it adds a black Loyalist follower to {en} (Mordred variant).",
        f"Al resolverla se añade un seguidor negro leal a Mordred en {es} (variante Mordred).",
        f"Ao resolvê-la, um Seguidor Lealista preto é colocado em {pt} (Variante Mordred).",
    )


_HOME_OF: Mapping[Faction, tuple[str, str, str]] = {
    data.SCOTS: (
        "Home region of the Scots (blue).",
        "Región de origen de los escoceses (azul).",
        "Região natal dos Escoceses (azul).",
    ),
    data.WELSH: (
        "Home region of the Welsh (red).",
        "Región de origen de los galeses (rojo).",
        "Região natal dos Galeses (vermelho).",
    ),
    data.ROMANO_BRITISH: (
        "Home region of the Romano-British (yellow).",
        "Región de origen de los romano-británicos (amarillo).",
        "Região natal dos Romano-Britânicos (amarelo).",
    ),
}
_START_BLACK = (
    "It starts with one black Loyalist follower in the Mordred variant.",
    "Empieza con un seguidor negro leal a Mordred en la variante Mordred.",
    "Começa com um Seguidor Lealista preto na Variante Mordred.",
)
_NO_INTRO = ("", "", "")


def _intro(region: Region) -> tuple[str, str, str]:
    """A region's first sentence: whose home it is (data.HOMES), or that it
    starts with a black follower (data.MORDRED_START)."""
    for faction, home in data.HOMES.items():
        if home == region:
            return _HOME_OF[faction]
    return _START_BLACK if region in data.MORDRED_START else _NO_INTRO


def _region(region: Region) -> Texts:
    names = _REGION_NAMES[region]
    intro = _intro(region)
    banner = _banner(data.BANNER[region])
    return {
        lang: Text(name, f"{pre}{' ' if pre else ''}{flag}".strip())
        for lang, name, pre, flag in zip(LANGUAGES, names, intro, banner, strict=True)
    }


REGIONS: Mapping[Region, Texts] = {region: _region(region) for region in data.REGIONS}

# --- factions and colours ------------------------------------------------------------------


def _followers(faction: Faction, name: tuple[str, str, str], colour: tuple[str, str, str]) -> Texts:
    """A faction's texts: its name, and its followers' colour (plural) and
    home region (data.HOMES) in each language."""
    en, es, pt = _REGION_NAMES[data.HOMES[faction]]
    return _t(
        (name[0], f"{colour[0]} followers; home region {en}."),
        (name[1], f"Seguidores {colour[1]}; región de origen {es}."),
        (name[2], f"Seguidores {colour[2]}; região natal {pt}."),
    )


FACTIONS: Mapping[Faction, Texts] = {
    data.SCOTS: _followers(
        data.SCOTS, ("Scots", "Escoceses", "Escoceses"), ("Blue", "azules", "azuis")
    ),
    data.WELSH: _followers(
        data.WELSH, ("Welsh", "Galeses", "Galeses"), ("Red", "rojos", "vermelhos")
    ),
    data.ROMANO_BRITISH: _followers(
        data.ROMANO_BRITISH,
        ("Romano-British", "Romano-británicos", "Romano-Britânicos"),
        ("Yellow", "amarillos", "amarelos"),
    ),
    data.LOYALISTS: _t(
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
COLOURS: Mapping[Faction, Mapping[str, str]] = {
    data.SCOTS: {"en": "blue", "es": "azul", "pt": "azul"},
    data.WELSH: {"en": "red", "es": "rojo", "pt": "vermelho"},
    data.ROMANO_BRITISH: {"en": "yellow", "es": "amarillo", "pt": "amarelo"},
    data.LOYALISTS: {"en": "black", "es": "negro", "pt": "preto"},
}

# --- action cards ------------------------------------------------------------------------------

CARDS: Mapping[data.Card, Texts] = {
    data.CROWN: _t(
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
    data.GARRISON: _t(
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
    data.AMBASSADOR: _t(
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
    data.SETTLERS: _t(
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
    data.CARD_SCOTS: _t(
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
    data.CARD_WELSH: _t(
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
    data.CARD_ROMANO_BRITISH: _t(
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


def language(lang: str) -> str:
    """``lang`` if it is one of LANGUAGES, else English."""
    return lang if lang in LANGUAGES else "en"


def region_name(region: int, lang: str = "en") -> str:
    texts = REGIONS.get(region)
    return texts[language(lang)].name if texts else f"region {region}"


def faction_name(faction: int, lang: str = "en") -> str:
    texts = FACTIONS.get(faction)
    return texts[language(lang)].name if texts else f"faction {faction}"


def colour_name(faction: int, lang: str = "en") -> str:
    names = COLOURS.get(faction)
    return names[language(lang)] if names else f"colour {faction}"


def card_name(card: int, lang: str = "en") -> str:
    texts = CARDS.get(card)
    return texts[language(lang)].name if texts else f"card {card}"


def card_text(card: int, lang: str = "en") -> str:
    texts = CARDS.get(card)
    return texts[language(lang)].description if texts else ""


def event_kind_name(kind: str, lang: str = "en") -> str:
    texts = EVENT_KINDS.get(kind)
    return texts[language(lang)].name if texts else kind


def control_name(control: int, lang: str = "en") -> str:
    """Who holds a resolved region: a faction, or the Saxons."""
    if control == data.SAXONS:
        return SAXONS[language(lang)].name
    return faction_name(control, lang)
