// The market's carousel: each slide its picture and name; a slide with a link opens it (a site
// path in place, another site in a new tab).
import { Carousel } from "antd";
import { AppLink } from "../app-link";
import type { TCarouselView } from "../../../server/market/market.schema";

function Slide({ s }: { s: TCarouselView }) {
  const body = (
    <div className="mk-slide" style={{ backgroundImage: `url("${s.imageUrl.replace(/"/g, "%22")}")` }} data-testid="carousel-slide">
      <span className="mk-slide__name">{s.name}</span>
    </div>
  );
  if (!s.link) return body;
  if (s.link.startsWith("/")) return <AppLink to={s.link}>{body}</AppLink>;
  return (
    <a href={s.link} target="_blank" rel="noopener noreferrer">
      {body}
    </a>
  );
}

export function CarouselBanner({ slides }: { slides: TCarouselView[] }) {
  if (!slides.length) return null;
  return (
    <div className="mk-carousel">
      <Carousel autoplay={slides.length > 1} dots={slides.length > 1}>
        {slides.map((s) => (
          <div key={s.id}>
            <Slide s={s} />
          </div>
        ))}
      </Carousel>
    </div>
  );
}
