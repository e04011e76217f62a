"""Writes the FeedCore test corpus, byte for byte (8-bit encodings, UTF-16, gzip).

Run from anywhere: python3 Tests/FeedCoreTests/Corpus/generate.py
"""
import base64, gzip, os

os.chdir(os.path.dirname(os.path.abspath(__file__)))

def w(name, text, enc="utf-8"):
    with open(name, "wb") as f:
        f.write(text.encode(enc) if isinstance(text, str) else text)

RSS20 = """<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:content="http://purl.org/rss/1.0/modules/content/" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:atom="http://www.w3.org/2005/Atom">
  <channel>
    <title>Example &amp; Co. News</title>
    <link>https://example.com/</link>
    <description>Everything &lt;b&gt;new&lt;/b&gt; at Example</description>
    <atom:link href="https://example.com/feed.xml" rel="self" type="application/rss+xml"/>
    <image>
      <url>https://example.com/logo.png</url>
      <title>Example</title>
      <link>https://example.com/</link>
    </image>
    <item>
      <title>Release &lt;em&gt;2.0&lt;/em&gt; is out</title>
      <link>https://example.com/posts/release-2</link>
      <guid isPermaLink="false">tag:example.com,2024:release-2</guid>
      <pubDate>Tue, 05 Mar 2024 10:30:00 GMT</pubDate>
      <dc:creator>Jane Doe</dc:creator>
      <description><![CDATA[<p>We shipped <b>2.0</b> &mdash; read   the <a href="/notes">notes</a>.</p><script>alert("x")</script>]]></description>
      <content:encoded><![CDATA[<p>Full <em>story</em>.</p>]]></content:encoded>
      <enclosure url="https://example.com/media/release.mp3" type="audio/mpeg" length="123456"/>
    </item>
    <item>
      <title>Permalink guid</title>
      <guid>https://example.com/posts/permalink</guid>
      <pubDate>Mon, 04 Mar 2024 09:00:00 -0500</pubDate>
      <author>editor@example.com (Ed Itor)</author>
      <description>Plain text with an &amp;amp; ampersand</description>
    </item>
  </channel>
</rss>
"""
w("rss20.xml", RSS20)
with open("rss20.xml.gz", "wb") as f:
    f.write(gzip.compress(RSS20.encode(), mtime=0))

w("rss091.xml", """<?xml version="1.0"?>
<!DOCTYPE rss PUBLIC "-//Netscape Communications//DTD RSS 0.91//EN" "http://my.netscape.com/publish/formats/rss-0.91.dtd">
<rss version="0.91">
<channel>
<title>Caf&eacute; Weekly</title>
<link>http://cafe.example.org/</link>
<description>Notes from the caf&eacute;</description>
<language>en-us</language>
<item>
<title>Cr&egrave;me br&ucirc;l&eacute;e &amp; more</title>
<link>http://cafe.example.org/2001/05/creme.html</link>
<description>Recipe&nbsp;inside</description>
</item>
</channel>
</rss>
""")

w("rss092.xml", """<?xml version="1.0"?>
<rss version="0.92">
  <channel>
    <title>Podcast 0.92</title>
    <link>http://pod.example.net/</link>
    <description>Episodes</description>
    <item>
      <description>An item with no title, only a description.</description>
      <enclosure url="http://pod.example.net/ep1.mp3" length="5000" type="audio/mpeg"/>
    </item>
  </channel>
</rss>
""")

w("rss10.rdf", """<?xml version="1.0" encoding="utf-8"?>
<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns="http://purl.org/rss/1.0/" xmlns:dc="http://purl.org/dc/elements/1.1/">
  <channel rdf:about="http://rdf.example.org/rss">
    <title>RDF Site</title>
    <link>http://rdf.example.org/</link>
    <description>An RSS 1.0 feed</description>
    <image rdf:resource="http://rdf.example.org/icon.gif"/>
    <items>
      <rdf:Seq>
        <rdf:li rdf:resource="http://rdf.example.org/a"/>
      </rdf:Seq>
    </items>
  </channel>
  <image rdf:about="http://rdf.example.org/icon.gif">
    <title>RDF Site</title>
    <url>http://rdf.example.org/icon.gif</url>
    <link>http://rdf.example.org/</link>
  </image>
  <item rdf:about="http://rdf.example.org/a">
    <title>First RDF item</title>
    <link>http://rdf.example.org/a</link>
    <description>About &lt;i&gt;RDF&lt;/i&gt;</description>
    <dc:date>2024-02-29T23:59:59+01:00</dc:date>
    <dc:creator>R. D. Fox</dc:creator>
  </item>
</rdf:RDF>
""")

w("atom10.xml", """<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="http://www.w3.org/2005/Atom" xml:base="https://blog.example.com/">
  <title type="html">Atom &lt;b&gt;Blog&lt;/b&gt;</title>
  <subtitle>Notes &amp; links</subtitle>
  <link rel="self" href="/feed.atom"/>
  <link href="/"/>
  <id>urn:uuid:60a76c80-d399-11d9-b91C-0003939e0af6</id>
  <updated>2024-03-06T12:00:00Z</updated>
  <icon>/favicon.ico</icon>
  <author><name>Feed Author</name></author>
  <entry xml:base="posts/">
    <title>Relative links</title>
    <link rel="alternate" type="text/html" href="first.html"/>
    <link rel="enclosure" type="video/mp4" length="999" href="media/clip.mp4"/>
    <id>tag:blog.example.com,2024:1</id>
    <published>2024-03-05T08:00:00-05:00</published>
    <updated>2024-03-05T09:15:30.250Z</updated>
    <summary>1 &lt; 2 and  2 &gt; 1</summary>
    <content type="xhtml" xml:base="https://cdn.example.com/">
      <div xmlns="http://www.w3.org/1999/xhtml"><p>Hello <b>XHTML</b> &amp; <img src="pic.png"/>world</p></div>
    </content>
  </entry>
  <entry>
    <title type="text">  Second   entry  </title>
    <link rel="related" href="https://elsewhere.example.org/"/>
    <link href="second.html"/>
    <id>tag:blog.example.com,2024:2</id>
    <updated>2024-03-04T00:00:00Z</updated>
    <content type="html">&lt;p&gt;Escaped &lt;i&gt;HTML&lt;/i&gt;&lt;/p&gt;</content>
  </entry>
  <entry xml:base="https://other.example.net/deep/path/">
    <title>Nested base</title>
    <link href="../up.html"/>
    <id>tag:blog.example.com,2024:3</id>
    <author><name>Guest Writer</name></author>
    <updated>2024-03-03T00:00:00Z</updated>
    <content type="text">Plain &lt;text&gt; &amp; more</content>
  </entry>
</feed>
""")

b64 = base64.b64encode(b"<p>Base64 <b>body</b></p>").decode()
w("atom03.xml", f"""<?xml version="1.0" encoding="utf-8"?>
<feed version="0.3" xmlns="http://purl.org/atom/ns#">
  <title>Old Atom</title>
  <tagline>Pre-standard Atom</tagline>
  <link rel="alternate" type="text/html" href="http://old.example.com/"/>
  <modified>2004-01-01T00:00:00Z</modified>
  <entry>
    <title>Escaped entry</title>
    <link rel="alternate" type="text/html" href="http://old.example.com/2003/12/13/atom03"/>
    <id>tag:old.example.com,2003:3.2397</id>
    <issued>2003-12-13T08:29:29-04:00</issued>
    <modified>2003-12-13T18:30:02Z</modified>
    <summary type="text/plain">Short</summary>
    <content type="text/html" mode="escaped">&lt;p&gt;Escaped &amp;amp; done&lt;/p&gt;</content>
  </entry>
  <entry>
    <title>Base64 entry</title>
    <id>tag:old.example.com,2003:3.2398</id>
    <issued>2003-12-14T00:00:00Z</issued>
    <content type="text/html" mode="base64">{b64}</content>
  </entry>
</feed>
""")

w("jsonfeed11.json", """{
  "version": "https://jsonfeed.org/version/1.1",
  "title": "JSON Example",
  "home_page_url": "https://json.example.com/",
  "feed_url": "https://json.example.com/feed.json",
  "description": "A JSON Feed",
  "icon": "https://json.example.com/icon.png",
  "authors": [{"name": "J. Son"}],
  "items": [
    {
      "id": "1",
      "url": "https://json.example.com/1",
      "title": "First",
      "content_html": "<p>Hi</p>",
      "summary": "First item",
      "date_published": "2024-03-01T10:00:00+00:00",
      "attachments": [{"url": "https://json.example.com/1.mp3", "mime_type": "audio/mpeg", "size_in_bytes": 2048}]
    },
    {
      "id": 2,
      "url": "/2",
      "title": "Numeric id, relative url",
      "content_text": "a < b",
      "date_modified": "2024-03-02T10:00:00Z",
      "authors": [{"name": "Guest"}]
    },
    {
      "id": "3",
      "title": {"text": "not a string"},
      "content_text": "A title of the wrong type is dropped"
    }
  ]
}
""")

w("jsonfeed10.json", """{
  "version": "https://jsonfeed.org/version/1",
  "title": "Version One",
  "home_page_url": "https://v1.example.com/",
  "author": {"name": "Old Author"},
  "items": [
    {"id": "a", "url": "https://v1.example.com/a", "title": "Legacy author", "content_text": "Text", "date_published": "2017-05-17T08:02:12-07:00"}
  ]
}
""")

w("latin1.xml", """<?xml version="1.0" encoding="ISO-8859-1"?>
<rss version="2.0"><channel><title>Caf\u00e9 \u20ac Latin</title><link>http://latin.example/</link><description>d</description>
<item><title>\u201cSmart quotes\u201d na\u00efve</title><guid>latin-1</guid></item></channel></rss>
""", "cp1252")

w("windows1252.xml", """<?xml version='1.0' encoding='windows-1252' ?>
<rss version="2.0"><channel><title>Price \u20ac5 \u2013 it\u2019s a deal\u2026</title><link>http://cp1252.example/</link><description>d</description>
<item><title>\u00c9t\u00e9 \u0160koda \u2122</title><guid>cp-1</guid></item></channel></rss>
""", "cp1252")

UTF16 = """<?xml version="1.0" encoding="UTF-16"?>
<rss version="2.0"><channel><title>Gr\u00fc\u00dfe \u65e5\u672c \U0001F600</title><link>http://utf16.example/</link><description>d</description>
<item><title>Sixteen</title><guid>u16</guid></item></channel></rss>
"""
w("utf16le.xml", b"\xff\xfe" + UTF16.encode("utf-16-le"))
w("utf16be.xml", b"\xfe\xff" + UTF16.encode("utf-16-be"))

w("mislabelled-utf8.xml", b"""<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0"><channel><title>It\x92s caf\xc3\xa9</title><link>http://mix.example/</link><description>d</description></channel></rss>
""")

w("missing-fields.xml", """<?xml version="1.0"?>
<rss version="2.0">
  <channel>
    <item>
      <title>Only a title</title>
    </item>
    <item>
      <title>Title and date</title>
      <pubDate>Wed, 06 Mar 2024 00:00:00 GMT</pubDate>
    </item>
    <item>
      <link>https://missing.example/link-only</link>
    </item>
    <item></item>
  </channel>
</rss>
""")

w("dates.xml", """<?xml version="1.0"?>
<rss version="2.0">
  <channel>
    <title>Dates</title>
    <item><guid>rfc822</guid><pubDate>Tue, 05 Mar 2024 10:30:00 GMT</pubDate></item>
    <item><guid>no-seconds-est</guid><pubDate>Tue, 5 Mar 2024 10:30 EST</pubDate></item>
    <item><guid>no-weekday-offset</guid><pubDate>05 Mar 2024 10:30:00 +0100</pubDate></item>
    <item><guid>lowercase-spaces</guid><pubDate>  tue,  05   mar 2024 10:30:00 pdt </pubDate></item>
    <item><guid>two-digit-year</guid><pubDate>Tue, 05 Mar 24 10:30:00 UT</pubDate></item>
    <item><guid>iso-zulu</guid><pubDate>2024-03-05T10:30:00Z</pubDate></item>
    <item><guid>iso-no-zone</guid><pubDate>2024-03-05T10:30:00</pubDate></item>
    <item><guid>iso-space-offset</guid><pubDate>2024-03-05 10:30:00+05:30</pubDate></item>
    <item><guid>garbage</guid><pubDate>sometime last week</pubDate></item>
  </channel>
</rss>
""")

w("malformed-mismatched.xml", """<?xml version="1.0"?>
<rss version="2.0">
<channel>
<title>Broken</title>
<item><title>Oops</titel></item>
</channel>
</rss>
""")
w("malformed-truncated.xml", """<?xml version="1.0"?>
<rss version="2.0">
<channel>
<title>Cut short</title>
<item><title>Half""")
w("malformed-ampersand.xml", """<?xml version="1.0"?>
<rss version="2.0">
<channel>
<title>Fish & Chips</title>
</channel>
</rss>
""")
w("malformed-attribute.xml", """<?xml version="1.0"?>
<rss version="2.0">
<channel>
<item>
  <enclosure url=http://x.example/a.mp3 />
</item>
</channel>
</rss>
""")
w("malformed-control-character.xml", "<?xml version=\"1.0\"?>\n<rss version=\"2.0\"><channel>\n<title>Bell \x07 here</title></channel></rss>\n")

w("not-a-feed.html", """<!DOCTYPE html>
<html lang="en">
<head><meta charset="utf-8"><title>Just a page</title></head>
<body><p>No feed here.</p></body>
</html>
""")
w("opml.xml", """<?xml version="1.0"?>
<opml version="2.0"><head><title>Subscriptions</title></head><body/></opml>
""")

lol = '<?xml version="1.0"?>\n<!DOCTYPE rss [\n  <!ENTITY lol "lol">\n'
prev = "lol"
for i in range(1, 10):
    lol += f'  <!ENTITY lol{i} "' + f"&{prev};" * 10 + '">\n'
    prev = f"lol{i}"
lol += ']>\n<rss version="2.0"><channel><title>&lol9;</title></channel></rss>\n'
w("billion-laughs.xml", lol)

w("external-entity.xml", """<?xml version="1.0"?>
<!DOCTYPE rss [
  <!ENTITY secret SYSTEM "file://SECRET_PATH">
]>
<rss version="2.0"><channel><title>Leak: &secret;</title></channel></rss>
""")
w("external-dtd.xml", """<?xml version="1.0"?>
<!DOCTYPE rss SYSTEM "file://SECRET_PATH">
<rss version="2.0"><channel><title>Leak: &secret;</title></channel></rss>
""")
