"""The ledger's head as a few short words a person can read aloud and compare across screens.

Four words carry 32 bits of the head hash: enough for a family to notice that
two screens disagree, or that the ledger went back, without reading hex.
"""

WORDS = {
    "en": (
        "acorn", "actor", "album", "amber", "anchor", "angel", "apple", "apron", "arrow", "atlas",
        "attic", "badge", "bagel", "baker", "bamboo", "banjo", "barn", "basket", "beach", "beard",
        "bell", "bench", "berry", "bicycle", "bison", "blanket", "blossom", "boat", "bone", "book",
        "boot", "bottle", "bracelet", "bread", "brick", "bridge", "broom", "bubble", "bucket", "butter",
        "cabin", "cactus", "camel", "camera", "candle", "canoe", "canyon", "carpet", "carrot", "castle",
        "cello", "chair", "chalk", "cherry", "chess", "circus", "cliff", "clock", "cloud", "clover",
        "coat", "cocoa", "comet", "compass", "cookie", "copper", "coral", "cotton", "cradle", "crane",
        "crayon", "cricket", "crown", "cup", "daisy", "desert", "diamond", "dinner", "dolphin", "donkey",
        "door", "dragon", "drum", "duck", "eagle", "easel", "elbow", "engine", "falcon", "feather",
        "fence", "fern", "fiddle", "finch", "flag", "flute", "forest", "fork", "fossil", "fountain",
        "fox", "frog", "garden", "garlic", "gate", "giraffe", "glove", "goat", "grape", "guitar",
        "hammer", "harbor", "harp", "hat", "hazel", "hedge", "helmet", "hero", "honey", "horse",
        "igloo", "iron", "island", "ivory", "jacket", "jaguar", "jelly", "jewel", "kayak", "kettle",
        "kite", "kitten", "koala", "ladder", "lake", "lamp", "lantern", "lemon", "lily", "lion",
        "lizard", "llama", "lobster", "locket", "magnet", "mango", "maple", "marble", "meadow", "melon",
        "mirror", "mitten", "monkey", "moon", "moose", "mountain", "mouse", "muffin", "needle", "nest",
        "noodle", "oak", "oar", "ocean", "olive", "onion", "orange", "orchid", "otter", "owl",
        "paddle", "palace", "panda", "paper", "parrot", "peach", "peanut", "pear", "pebble", "pencil",
        "penguin", "pepper", "piano", "pillow", "pine", "planet", "plum", "pocket", "pony", "potato",
        "pumpkin", "puzzle", "quilt", "rabbit", "radio", "raft", "rainbow", "raven", "ribbon", "river",
        "robin", "rocket", "rose", "ruby", "saddle", "salmon", "sandal", "saucer", "scarf", "seal",
        "shell", "ship", "silver", "sled", "snail", "sock", "spoon", "squirrel", "star", "stone",
        "sugar", "summer", "sun", "swan", "table", "tea", "tiger", "toast", "tomato", "tower",
        "tractor", "train", "tulip", "turtle", "umbrella", "valley", "vase", "violin", "wagon", "walnut",
        "whale", "wheel", "willow", "window", "wolf", "yacht", "zebra", "button", "cannon", "dove",
        "forge", "glacier", "hive", "ink", "jigsaw", "tent",
    ),
    "ru": (
        "абрикос", "автобус", "айва", "акула", "альбом", "ананас", "апельсин", "арбуз", "арфа", "астра",
        "аист", "бабочка", "баран", "барабан", "баржа", "башня", "белка", "берёза", "бидон", "бинокль",
        "блин", "блюдце", "бобр", "бочка", "браслет", "бубен", "букет", "бусы", "валенок", "ванна",
        "варежка", "ведро", "веер", "велосипед", "верблюд", "весло", "ветка", "вилка", "виноград", "вишня",
        "воздух", "волк", "ворона", "вулкан", "гайка", "галка", "гвоздь", "гитара", "глобус", "гном",
        "голубь", "гора", "горох", "гриб", "груша", "гусь", "дверь", "дельфин", "диван", "дождь",
        "домик", "дракон", "дрозд", "дуб", "дыня", "ёж", "ёлка", "енот", "жаба", "жёлудь",
        "жираф", "жук", "журавль", "забор", "заяц", "звезда", "зебра", "зеркало", "зонт", "зубр",
        "игла", "изюм", "индюк", "иней", "ирис", "кабан", "кактус", "калач", "камень", "канат",
        "капуста", "карандаш", "карта", "каша", "кедр", "кекс", "кит", "клевер", "ключ", "книга",
        "ковёр", "коза", "колесо", "кольцо", "комета", "компас", "корабль", "корона", "кот", "кран",
        "крокодил", "кролик", "кружка", "кубик", "кукла", "лампа", "ландыш", "ласточка", "лебедь", "лев",
        "лейка", "лимон", "липа", "лиса", "лодка", "ложка", "лось", "луна", "лыжи", "мак",
        "малина", "мандарин", "маяк", "мёд", "медведь", "мельница", "метла", "мишка", "молоко", "море",
        "морковь", "мост", "мотылёк", "мяч", "орех", "облако", "обруч", "огурец", "окно", "олень",
        "омар", "орёл", "осёл", "оса", "остров", "павлин", "палатка", "панда", "парус", "пенал",
        "перо", "песок", "петух", "пингвин", "пирог", "письмо", "плот", "подушка", "поезд", "попугай",
        "пряник", "птица", "пчела", "пушка", "радуга", "ракета", "ракушка", "река", "репа", "рояль",
        "роза", "ромашка", "рыба", "рюкзак", "самовар", "сани", "сапог", "свеча", "сверчок", "свитер",
        "сердце", "сирень", "скрипка", "слива", "слон", "снег", "сова", "сокол", "солнце", "сом",
        "сосна", "стол", "стрела", "стул", "сыр", "тигр", "тарелка", "телега", "тополь", "торт",
        "трактор", "труба", "тыква", "тюльпан", "улей", "улитка", "утка", "утюг", "фазан", "фиалка",
        "фонарь", "фонтан", "хлеб", "хомяк", "цапля", "цветок", "цирк", "чайник", "чайка", "часы",
        "черепаха", "черника", "чернила", "чеснок", "шапка", "шар", "шарф", "шахматы", "шишка", "шмель",
        "щука", "эскимо", "юла", "яблоко", "ягода", "якорь", "ястреб", "лесенка", "бублик", "веник",
        "дятел", "ёрш", "кисель", "компот", "метель", "пуговица",
    ),
}


def head_words(head_hash: str, language: str = "en") -> str:
    """Four words for the first 32 bits of a head hash (hex)."""
    words = WORDS.get(language, WORDS["en"])
    value = bytes.fromhex(head_hash[:8])
    return " ".join(words[b] for b in value)
